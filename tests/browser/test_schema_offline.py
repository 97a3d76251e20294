"""``/schema`` renders the API docs (Swagger UI) from packaged assets, with the network blocked, and shows the
refined document (the committed ``openapi/openapi.json``: its operation ids)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse


def test_the_api_docs_render_with_every_other_host_blocked(live: str, context: Any) -> None:
    blocked: list[str] = []
    local = urlparse(live).netloc

    def route(r: Any) -> None:
        if urlparse(r.request.url).netloc != local:
            blocked.append(r.request.url)
            r.abort()
        else:
            r.continue_()

    page = context.new_page()
    page.route("**/*", route)
    page.goto(f"{live}/schema")
    page.wait_for_selector(".swagger-ui .information-container .title", timeout=15_000)
    assert "dicelog" in page.locator(".swagger-ui .information-container .title").inner_text()
    page.wait_for_selector(".swagger-ui .opblock-tag-section", timeout=15_000)
    assert page.locator(".swagger-ui .opblock").count() > 20  # the operations are listed
    assert not blocked, f"the docs asked for other hosts: {blocked}"
    html = page.content()  # the refined document is shown (its operation ids), not Litestar's own
    assert "sendCommand" in html and "GamesGameIdCommandsSendCommand" not in html
