"""The TOML that PHH files are written in, read fast and with each value's line.

PHH uses a small part of TOML: ``key = value`` lines, one level of ``[table]`` headers
(a file of many hands), and values that are strings, numbers, booleans or arrays of them
(an array may run over many lines, with comments).  ``loads`` reads exactly that, line
by line, about five times faster than ``tomllib``, and says on which line each array
element stands (a problem in an action then names its line).  Anything else (escapes in
a string, dates, inline tables, nested tables, a repeated key) returns None, and the
caller reads the file with ``tomllib``, whose answer is the standard's.
"""
from __future__ import annotations

import math
import re

__all__ = ["loads", "Parsed"]

KEY = re.compile(r"\s*([A-Za-z0-9_-]+)\s*=\s*")
HEADER = re.compile(r"\s*\[\s*(?:([A-Za-z0-9_-]+)|\"([^\"\\\n]*)\"|'([^'\n]*)')\s*\]\s*"
                    r"(?:#.*)?$")
# one value: a basic string without escapes, a literal string, a number, a boolean
VALUE = re.compile(r"\s*(?:\"([^\"\\\n]*)\"|'([^'\n]*)'|([+-]?(?:inf|nan|(?:0|[1-9][0-9]*)"
                   r"(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?))|(true|false))")
_ITEM = (r"(?:\"[^\"\\\n]*\"|'[^'\n]*'|[+-]?(?:inf|nan|(?:0|[1-9][0-9]*)(?:\.[0-9]+)?"
         r"(?:[eE][+-]?[0-9]+)?)|true|false)")
ONE_LINE = re.compile(r"\[((?:[^\]\"'#\n]|\"[^\"\\\n]*\"|'[^'\n]*')*)\]\s*(?:#.*)?$")
# the inside of an array, whole: each blank run between two required tokens, so that a
# failing match backtracks in linear time (two blank runs side by side took quadratic)
ITEMS = re.compile(rf"\s*(?:{_ITEM}\s*(?:,\s*{_ITEM}\s*)*(?:,\s*)?)?")
ITEM = re.compile(VALUE.pattern)
INTEGER = re.compile(r"[+-]?(?:0|[1-9][0-9]*)$")
AFTER = re.compile(r"\s*(?:#.*)?$")              # the end of a line: blanks, a comment
ELEMENT = re.compile(r"\s*\"([^\"\\\n]*)\"\s*,\s*(?:#.*)?$")   # a line: "string",
# the insides of the arrays PHH writes most, read at once: literal strings, basic strings
# without escapes, whole numbers (each a subset of ITEMS, so read the same)
LITERALS = re.compile(r"\s*'[^'\n]*'(?:\s*,\s*'[^'\n]*')*\s*(?:,\s*)?")
LITERAL = re.compile(r"'([^'\n]*)'")
BASICS = re.compile(r'\s*"[^"\\\n]*"(?:\s*,\s*"[^"\\\n]*")*\s*(?:,\s*)?')
BASIC = re.compile(r'"([^"\\\n]*)"')
WHOLES = re.compile(r"\s*[+-]?(?:0|[1-9][0-9]*)(?:\s*,\s*[+-]?(?:0|[1-9][0-9]*))*\s*(?:,\s*)?")


class Parsed:
    """A file read by ``loads``: ``data`` (as ``tomllib.loads`` gives it), each table's
    header line (``tables``), and the line of each element of each array
    (``lines[(table, key)]``; table None for the top level)."""

    def __init__(self) -> None:
        self.data: dict = {}
        self.tables: dict[str, int] = {}
        self.lines: dict[tuple[str | None, str], list[int]] = {}


def _scalar(found: re.Match[str]) -> object:
    text, literal, number, boolean = found.groups()
    if text is not None:
        return text
    if literal is not None:
        return literal
    if boolean is not None:
        return boolean == "true"
    if INTEGER.match(number):
        return int(number)
    if number.lstrip("+-") in ("inf", "nan"):
        value = math.inf if number.lstrip("+-") == "inf" else math.nan
        return -value if number.startswith("-") else value
    return float(number)


def _row(inside: str) -> list | None:
    """The elements of a one-line array's inside; None where it is not one."""
    if LITERALS.fullmatch(inside):
        return LITERAL.findall(inside)
    if WHOLES.fullmatch(inside):
        return [int(word) for word in inside.split(",") if not word.isspace() and word]
    if BASICS.fullmatch(inside):
        return BASIC.findall(inside)
    if not ITEMS.fullmatch(inside):
        return None
    return [found.group(1) if found.lastindex == 1 else _scalar(found)
            for found in ITEM.finditer(inside)]


def loads(text: str) -> Parsed | None:
    """``text`` read (see the module), or None where it holds more than PHH's TOML."""
    parsed = Parsed()
    table: dict = parsed.data
    name: str | None = None
    lines = text.splitlines()
    n = 0
    while n < len(lines):
        line = lines[n]
        n += 1
        first = line[:1]
        # a line that starts with a key's letter is neither blank, a comment nor a header
        plain = first.isalnum() or first == "_" or first == "-"
        if not plain and AFTER.match(line):
            continue
        header = None if plain else HEADER.match(line)
        if header:
            name = next(g for g in header.groups() if g is not None)
            if name in parsed.data:
                return None
            table = parsed.data[name] = {}
            parsed.tables[name] = n
            continue
        key = KEY.match(line)
        if not key or key.group(1) in table:
            return None
        at = key.end()
        whole = ONE_LINE.match(line, at)
        inside = whole.group(1) if whole else ""
        if whole and (row := _row(inside)) is not None:  # an array on one line (pokerkit's)
            table[key.group(1)] = row
            parsed.lines[(name, key.group(1))] = [n] * len(row)
            continue
        if line.startswith("[", at):                    # an array, maybe of many lines
            items: list = []
            where: list[int] = []
            at += 1
            while True:
                found = VALUE.match(line, at)
                if found and found.end() > at:
                    items.append(_scalar(found))
                    where.append(n)
                    rest = line[found.end():].lstrip()
                    if rest.startswith(","):
                        at = len(line) - len(rest) + 1
                        continue
                    if rest.startswith("]"):
                        at = len(line) - len(rest) + 1
                        break
                    if AFTER.match(rest) and n < len(lines):
                        # the next element, or the end, on a later line
                        line, n, at = lines[n], n + 1, 0
                        while AFTER.match(line) and n < len(lines):
                            line, n = lines[n], n + 1
                        stripped = line.lstrip()
                        if not stripped.startswith(("]", ",")):
                            return None
                        at = len(line) - len(stripped)
                        if stripped.startswith(","):
                            at += 1
                            continue
                        at += 1
                        break
                    return None
                rest = line[at:].lstrip()
                if rest.startswith("]"):
                    at = len(line) - len(rest) + 1
                    break
                if AFTER.match(rest) and n < len(lines):
                    # the lines of one string each, as PHH writes its actions, read whole
                    while n < len(lines):
                        element = ELEMENT.match(lines[n])
                        if not element:
                            break
                        items.append(element.group(1))
                        n += 1
                        where.append(n)
                    if n >= len(lines):
                        return None
                    line, n, at = lines[n], n + 1, 0
                    continue
                return None
            if not AFTER.match(line, at):
                return None
            table[key.group(1)] = items
            parsed.lines[(name, key.group(1))] = where
            continue
        found = VALUE.match(line, at)
        if not found or not AFTER.match(line, found.end()):
            return None
        table[key.group(1)] = _scalar(found)
    return parsed
