"""Every example the project shows its users, found where it is written: the fenced code
blocks of README.md and docs/pages/*.md, and the lines after "examples:" in each
``--help`` of the command line.  ``tests/test_examples.py`` runs them and checks what
their comments say."""
from __future__ import annotations

import argparse
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs/pages").glob("*.md")))
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass
class Block:
    """One fenced code block: where it is, its language and its text."""

    page: str
    line: int                  # the line of its opening fence, from 1
    lang: str
    text: str


@dataclass
class Command:
    """One shell example, its comment apart; ``where`` lists every place it is shown."""

    code: str
    comments: set[str] = field(default_factory=set)
    where: list[str] = field(default_factory=list)


def blocks(page: str) -> list[Block]:
    """The fenced blocks of ``page`` (a path from the repository root), in order."""
    found, lang, start, lines = [], None, 0, []
    for number, line in enumerate((ROOT / page).read_text(encoding="utf-8").splitlines(), 1):
        match = FENCE.match(line)
        if lang is None and match and match.group(1):
            lang, start, lines = match.group(1), number, []
        elif lang is not None and line.strip() == "```":
            found.append(Block(page, start, lang, "\n".join(lines) + "\n"))
            lang = None
        elif lang is not None:
            lines.append(line)
    assert lang is None, f"{page}: a fence opened at line {start} is never closed"
    return found


def split_comment(line: str) -> tuple[str, str]:
    """``(code, comment)`` of a shell line: the first ``#`` outside quotes starts the
    comment; the code's runs of blanks become one blank."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
    lexer.whitespace_split = True
    lexer.commenters = ""
    quote, cut = None, len(line)
    for i, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            cut = i
            break
    return " ".join(line[:cut].split()), line[cut + 1:].strip()


def shell_lines(text: str) -> list[str]:
    """The lines of a shell block; an indented line continues the one before (the
    README's synopses wrap that way)."""
    lines: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if line[0].isspace() and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return lines


def epilog_examples(epilog: str | None) -> list[str]:
    """The indented lines after "examples:" or "example:" in an epilog."""
    found, inside = [], False
    for line in (epilog or "").splitlines():
        if line.strip() in ("examples:", "example:"):
            inside = True
        elif inside and line.startswith("  ") and line.strip():
            found.append(line.strip())
        else:
            inside = False
    return found


def parsers() -> dict[str, argparse.ArgumentParser]:
    """Every parser of the command line by its command: "evaluator", "evaluator equity",
    "evaluator study flops" ..."""
    from evaluator.cli import parser

    found: dict[str, argparse.ArgumentParser] = {}

    def walk(name: str, p: argparse.ArgumentParser) -> None:
        found[name] = p
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, child in action.choices.items():
                    walk(f"{name} {sub}", child)

    walk("evaluator", parser())
    return found


def commands() -> dict[str, Command]:
    """Every shell example by its code, from the pages' bash blocks and the epilogs."""
    found: dict[str, Command] = {}

    def add(line: str, where: str) -> None:
        code, comment = split_comment(line)
        command = found.setdefault(code, Command(code))
        command.where.append(where)
        if comment:
            command.comments.add(comment)

    for page in PAGES:
        for block in blocks(page):
            if block.lang == "bash":
                for line in shell_lines(block.text):
                    add(line, f"{page}:{block.line}")
    for name, p in parsers().items():
        for line in epilog_examples(p.epilog):
            add(line, f"{name} --help")
    return found


def python_blocks() -> dict[str, list[Block]]:
    """The Python blocks of each page, in order."""
    return {page: [b for b in blocks(page) if b.lang == "python"] for page in PAGES}


def text_blocks() -> dict[str, list[Block]]:
    """The ``text`` blocks of each page: data the examples read (a queries.csv)."""
    return {page: [b for b in blocks(page) if b.lang == "text"] for page in PAGES}


@dataclass
class Statement:
    """One top-level statement of a Python block, run: its code (comments apart), its
    comment, and its value where it is an expression."""

    line: int                  # its first line in the page
    code: str
    comment: str
    value: object = None


def run_python(block: Block, namespace: dict, skip=lambda code: False,
               after=lambda statement: None) -> list[Statement]:
    """Run ``block`` statement by statement in ``namespace``: an expression's value is
    kept, as an interactive session would show it, and ``after(statement)`` called at
    once (before a later statement rebinds a name).  A statement ``skip(code)`` names is
    not run (the test runs it apart, as a cluster example).  An error names the page and
    line of the statement that raised it."""
    import ast
    import io
    import tokenize

    source = block.text
    lines = source.splitlines()
    comments: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string[1:].strip()
    done = []
    for node in ast.parse(source).body:
        code = ast.get_source_segment(source, node)
        first = node.lineno
        comment = " ".join(comments[n] for n in range(first, node.end_lineno + 1)
                           if n in comments)
        statement = Statement(block.line + first, " ".join(code.split()), comment)
        done.append(statement)
        if skip(statement.code):
            continue
        where = f"{block.page}:{statement.line}: {lines[first - 1].strip()}"
        try:
            if isinstance(node, ast.Expr):
                statement.value = eval(compile(ast.Expression(node.value), where, "eval"),
                                       namespace)
            else:
                exec(compile(ast.Module([node], []), where, "exec"), namespace)
        except Exception as error:
            raise AssertionError(f"{where} raised {error!r}") from error
        after(statement)
    return done
