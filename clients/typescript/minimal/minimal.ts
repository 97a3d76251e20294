// The smallest client: types from openapi-typescript with its default options (no flag), compiled by
// `tsc --strict`. It creates a game with the minimal body (the ruleset, its setup and the seats: every
// other field has a server default) and reads the game's state. tests/clients/test_typescript_defaults.py
// generates minimal/api.d.ts and compiles this file.

import createClient from "openapi-fetch";

import type { components, paths } from "./api.js";

type NewGame = components["schemas"]["NewMiceAndMysticsGame"];

const body: NewGame = {
  ruleset: "mice-and-mystics",
  setup: { mice: ["collin", "filch", "maginos", "nez"] },
  seats: [{ name: "red", controls: ["collin", "filch", "maginos", "nez"] }],
};

export async function createAndRead(baseUrl: string): Promise<number> {
  const client = createClient<paths>({ baseUrl });
  const created = await client.POST("/games", { body });
  if (created.data === undefined) {
    throw new Error(`POST /games: ${created.response.status}`);
  }
  const token: string = created.data.tokens[0]?.token ?? "";
  const state = await client.GET("/games/{game_id}/state", {
    params: { path: { game_id: created.data.game.id } },
    headers: { Authorization: `Bearer ${token}` },
  });
  if (state.data === undefined) {
    throw new Error(`GET /state: ${state.response.status}`);
  }
  return state.data.version;
}
