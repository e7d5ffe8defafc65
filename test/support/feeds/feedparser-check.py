"""Parses one feed with Debian's python3-feedparser, as a feed reader would, for the feed tests.

Usage: /usr/bin/python3 feedparser-check.py CONTENT_TYPE < feed
Prints one JSON object: whether feedparser found the document ill-formed ("bozo") and why, the
format it recognised, and the feed's and each entry's fields as feedparser gives them.
test/support/feed-consumers.ts (parseWithFeedparser) runs it and types the result.
"""

import io
import json
import sys

import feedparser


def entry_fields(entry):
    content = entry.get("content") or []
    return {
        "id": entry.get("id"),
        "title": entry.get("title"),
        "link": entry.get("link"),
        "summary": entry.get("summary"),
        "content": content[0].get("value") if content else None,
        "published": entry.get("published"),
        "updated": entry.get("updated"),
        "author": entry.get("author"),
        "tags": [tag.get("term") for tag in entry.get("tags") or []],
    }


def main():
    content_type = sys.argv[1]
    data = sys.stdin.buffer.read()
    d = feedparser.parse(io.BytesIO(data), response_headers={"content-type": content_type})
    exception = d.get("bozo_exception")
    result = {
        "bozo": bool(d.get("bozo")),
        "bozoException": None if exception is None else f"{type(exception).__name__}: {exception}",
        "version": d.get("version"),
        "feed": {
            "title": d.feed.get("title"),
            "link": d.feed.get("link"),
            "updated": d.feed.get("updated"),
        },
        "entries": [entry_fields(entry) for entry in d.entries],
    }
    # ASCII-only output: every non-ASCII character (a lone surrogate too) travels as a \u escape.
    sys.stdout.write(json.dumps(result) + "\n")


main()
