"""The HTML report (`regcheck report --html DIR`): a static site of plain files, with no script, no
server and nothing fetched from elsewhere, made from the results of the public API."""

from __future__ import annotations

from .site import Site, pages, write_site

__all__ = ["Site", "pages", "write_site"]
