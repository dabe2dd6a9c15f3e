"""The book's "From Python" chapter runs: its Python blocks, in order, print what its text blocks
show."""

import contextlib
import io
import os
import re

import pytest

CHAPTER = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "book", "src", "python.md")


def blocks(text, language):
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.S | re.M)


def test_the_chapters_code_prints_what_the_chapter_shows(tmp_path, monkeypatch):
    text = open(CHAPTER, encoding="utf-8").read()
    code, shown = blocks(text, "python"), blocks(text, "text")
    assert len(code) == 5 and len(shown) == 4
    monkeypatch.chdir(tmp_path)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile("\n".join(code), CHAPTER, "exec"), {"__name__": "walkthrough"})
    assert printed.getvalue() == "".join(shown)
    assert os.path.exists("results/heuristic-vs-rr/games.csv")
