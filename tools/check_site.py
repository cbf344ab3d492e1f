"""Checks a built copy of the documentation site (docs/_build/html by default):

1. links: every ``href`` and ``src`` of every page that points inside the site names a
   file that exists and, with a ``#fragment``, an id that the page holds;
2. a real browser: headless Chromium (Debian's ``chromium``, driven by Playwright) opens the
   front page and one operator page over HTTP and fails on a console error, an uncaught
   exception, a failed request or an image that did not load;
3. with ``--screenshots DIR``: PNG screenshots of those pages and of the benchmark plot.

    python tools/check_site.py [--html DIR] [--chromium PATH] [--screenshots DIR]

Exit status 0 when everything holds, 1 with one line per fault otherwise.
"""
import argparse
import functools
import html.parser
import http.server
import os
import sys
import threading
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ["index.html", "operators/max_pooling2.html"]
PLOT = "_images/bench_quick.png"


class _Refs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            elif name in ("href", "src") and value:
                self.refs.append(value)


def _parse(path, cache={}):
    if path not in cache:
        parser = _Refs()
        with open(path, encoding="utf-8") as f:
            parser.feed(f.read())
        cache[path] = parser
    return cache[path]


def check_links(site):
    """Faults of the site's internal links, as strings."""
    faults = []
    for dirpath, _, files in os.walk(site):
        for name in files:
            if not name.endswith(".html"):
                continue
            page = os.path.join(dirpath, name)
            for ref in _parse(page).refs:
                url = urllib.parse.urlsplit(ref)
                if url.scheme or url.netloc:
                    continue  # another site's page: not this check's business
                target = os.path.normpath(os.path.join(dirpath, urllib.parse.unquote(url.path))) if url.path else page
                if os.path.isdir(target):
                    target = os.path.join(target, "index.html")
                where = os.path.relpath(page, site)
                if not os.path.isfile(target):
                    faults.append(f"{where}: {ref}: no such file")
                elif url.fragment and target.endswith(".html") and url.fragment not in _parse(target).ids:
                    faults.append(f"{where}: {ref}: no id {url.fragment!r} in {os.path.relpath(target, site)}")
    return faults


def _serve(site):
    handler = functools.partial(_QuietHandler, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def check_in_browser(site, chromium, screenshots=None):
    """Faults seen by Chromium on PAGES, as strings; screenshots into a folder if given."""
    from playwright.sync_api import sync_playwright

    faults = []
    server = _serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            seen = []
            # (The browser asks every site for /favicon.ico by itself; Sphinx sites without a
            # favicon answer 404, which is not the page's fault.)
            page.on("console", lambda m: m.type == "error" and not m.location.get("url", "").endswith("/favicon.ico")
                    and seen.append(f"console error: {m.text} ({m.location.get('url')})"))
            page.on("pageerror", lambda e: seen.append(f"uncaught exception: {e}"))
            page.on("requestfailed", lambda r: seen.append(f"request failed: {r.url} ({r.failure})"))
            page.on("response", lambda r: r.status >= 400 and not r.url.endswith("/favicon.ico")
                    and seen.append(f"HTTP {r.status}: {r.url}"))
            for path in PAGES:
                seen.clear()
                page.goto(base + path, wait_until="networkidle")
                broken = page.evaluate("Array.from(document.images)"
                                       ".filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
                images = page.evaluate("document.images.length")
                faults += [f"{path}: {s}" for s in seen]
                faults += [f"{path}: image did not load: {src}" for src in broken]
                if images == 0:
                    faults.append(f"{path}: no images (every page checked here shows a picture)")
                print(f"{path}: {images} images, {len(broken)} broken, {len(seen)} errors")
                if screenshots:
                    os.makedirs(screenshots, exist_ok=True)
                    shot = os.path.join(screenshots, os.path.splitext(path)[0].replace("/", "_") + ".png")
                    page.screenshot(path=shot, full_page=False)
            if screenshots:  # the plot at its own size (its top: the legend and the first panels)
                page.set_viewport_size({"width": 2620, "height": 1500})
                page.goto(base + "index.html", wait_until="load")  # (same origin as the plot)
                page.set_content(f'<body style="margin:0"><img src="{base + PLOT}"></body>', wait_until="load")
                page.screenshot(path=os.path.join(screenshots, "bench_plot.png"), full_page=False)
            browser.close()
    finally:
        server.shutdown()
    return faults


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--html", default=os.path.join(ROOT, "docs", "_build", "html"), help="the built site")
    ap.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium binary (Debian's package)")
    ap.add_argument("--screenshots", metavar="DIR", help="write screenshots of the checked pages into DIR")
    ap.add_argument("--no-browser", action="store_true", help="check the links only")
    args = ap.parse_args(argv)
    if not os.path.isfile(os.path.join(args.html, "index.html")):
        print(f"check_site: {args.html} holds no built site (index.html)", file=sys.stderr)
        return 1
    faults = check_links(args.html)
    print(f"links: {len(faults)} broken")
    if not args.no_browser:
        faults += check_in_browser(args.html, args.chromium, args.screenshots)
    for f in faults:
        print(f"check_site: {f}", file=sys.stderr)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
