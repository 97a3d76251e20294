"""One module per rulebook section (STYLE.md, "What dicelog takes" 1)."""
