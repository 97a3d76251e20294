// The lobby's setup form for a new game of Mice and Mystics (docs/web-table.md, A lobby module's
// interface): the chapter (GET /content/mice-and-mystics/chapters) and the party of mice
// (GET /content/mice-and-mystics/mice; the chapter's party size chosen first, its banned mice offered
// disabled). The seats stay the lobby's own: the chosen mice are the pieces its seats split between them.

const MICE = "mice-and-mystics";

export async function setupForm(box, { api, el, clear, changed = () => {} }) {
  const [chapters, mice] = await Promise.all([api.get(`/content/${MICE}/chapters`), api.get(`/content/${MICE}/mice`)]);
  const chapterSelect = el("select", { id: "chapter", name: "chapter" },
    chapters.map((c) => el("option", { value: c.id, text: `${c.id}: ${c.title}` })));
  const note = el("span", { id: "chapter-note", class: "hint" });
  const party = el("div", { id: "mice" });
  box.append(
    el("div", { class: "field" }, el("label", { for: "chapter", text: "Chapter" }), chapterSelect, note),
    el("fieldset", { id: "mice-choice" }, el("legend", { text: "Mice" }), party));

  const chosen = () => [...party.querySelectorAll("input[type=checkbox]:checked")].map((i) => i.value);

  function drawMice() {
    const chapter = chapters.find((c) => c.id === chapterSelect.value);
    const banned = new Set((chapter && chapter.mice_not_allowed) || []);
    const before = new Set(chosen());
    const fresh = before.size === 0;
    clear(party);
    let picked = 0;
    for (const mouse of mice) {
      const allowed = !banned.has(mouse.id);
      const checked = allowed && (fresh ? picked < ((chapter && chapter.party_size) || 4) : before.has(mouse.id));
      if (checked) picked += 1;
      party.append(el("label", { title: allowed ? mouse.classes.join(", ") : chapter.mice_not_allowed_reason },
        el("input", { type: "checkbox", name: "mice", value: mouse.id, checked, disabled: !allowed, onchange: changed }),
        `${mouse.name}${allowed ? "" : " (not in this chapter)"}`));
    }
    note.textContent = chapter ? `${chapter.title}; party of ${chapter.party_size}` : "";
    changed();
  }

  chapterSelect.addEventListener("change", drawMice);
  drawMice();
  return {
    body: () => ({ setup: { chapter: chapterSelect.value, mice: chosen() } }),
    // the seats split the chosen mice between them, each mouse to exactly one seat
    pieces: () => chosen().map((id) => ({ id, name: (mice.find((m) => m.id === id) || { name: id }).name })),
    clearProblems() {},
    problem() { return false; },
  };
}
