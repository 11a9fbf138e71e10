"""Small helpers that keep error messages grammatical: "an int64 Tensor", "1 entry"."""

from __future__ import annotations

from typing import Any


def a(word: Any) -> str:
    """``word`` with its indefinite article: ``a float64``, ``an int64``, ``an 8-d``.

    >>> a("int64"), a("float32"), a("8-d"), a("uint8"), a("ndarray")
    ('an int64', 'a float32', 'an 8-d', 'a uint8', 'an ndarray')
    """
    text = str(word)
    # By sound: vowels, the digits read with one (8 "eight", 11 "eleven", 18 "eighteen"),
    # and "ndarray" ("en-dee-array").
    sounds_vowel = text[:1].lower() in "aeio" or text.startswith(("8", "11", "18", "nd"))
    if text.startswith(("uint", "uni", "use")):
        sounds_vowel = False
    return f"{'an' if sounds_vowel else 'a'} {text}"


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 entry``, ``2 entries``, ``0 values``.

    >>> count(1, "entry", "entries"), count(3, "entry", "entries"), count(0, "value")
    ('1 entry', '3 entries', '0 values')
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
