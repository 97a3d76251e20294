"""One module per rulebook section (docs/conventions.md, rule 1)."""
