"""The ``dicelog`` command line: export a game from the store, verify it offline, check content."""

from __future__ import annotations

import pytest

from service.cli import main
from tests.api.conftest import Table


@pytest.mark.parametrize("backend", ["sqlite"])  # the CLI reads the store named by DICELOG_* settings
def test_export_then_offline_verify_and_an_edited_line_is_named(client, tmp_path, monkeypatch, capsys):
    table = Table(client)
    mouse = table.summary()["turn"]
    assert table.send(table.seat_of(mouse), {"type": "Move", "mouse": mouse}).status_code == 201
    monkeypatch.setenv("DICELOG_DATA_DIR", str(client.app.state.runtime.settings.data_dir))
    out = tmp_path / "game.jsonl"
    assert main(["export", table.id, "--output", str(out)]) == 0
    assert main(["verify", str(out)]) == 0
    assert "verified: all" in capsys.readouterr().out
    lines = out.read_bytes().splitlines()
    lines[5] = lines[5].replace(b'"seat":"server"', b'"seat":"red"')
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(b"\n".join(lines) + b"\n")
    assert main(["verify", str(edited)]) == 1
    assert "DIVERGENCE at version 5" in capsys.readouterr().out


def test_content_check_passes_on_the_shipped_content(capsys):
    assert main(["content", "check"]) == 0
    assert "content ok" in capsys.readouterr().out
