"""The dtypes of tag frames (Archive.tags_frame, pgnarc.dask.read_tags), decided by the tag's name
so that every partition of a Dask frame has the same: ratings and counts as nullable Int64, dates
as datetime64 (NaT where the date is not complete), the result as a category; other tags as text.

A value that is not of its tag's type ("?" in WhiteElo, "2012.??.??" in Date, "+-" in Result) is
a missing value in the typed frame; `raw=True` gives every tag as its text."""

import re

import pandas

INTEGER_TAGS = ("WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff", "WhiteFideId", "BlackFideId",
                "PlyCount", "EventRounds", "Board")
DATE_TAGS = ("Date", "EventDate", "UTCDate")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


_WHOLE = re.compile(r"[+-]?[0-9]{1,18}")
_DATE = re.compile(r"[0-9]{4}\.[0-9]{2}\.[0-9]{2}")


def _matching(column, pattern):
    """The column's values that `pattern` matches whole, None elsewhere."""
    return column.astype(object).map(lambda v: v if isinstance(v, str) and pattern.fullmatch(v) else None)


def _integers(column):
    return pandas.to_numeric(_matching(column, _WHOLE), errors="coerce").astype("Int64")


def _dates(column):
    return pandas.to_datetime(_matching(column, _DATE), format="%Y.%m.%d", errors="coerce")


def typed(frame):
    """`frame` (every column text or None) with its tags' dtypes."""
    columns = {}
    for name in frame.columns:
        column = frame[name]
        if name in INTEGER_TAGS:
            column = _integers(column)
        elif name in DATE_TAGS:
            column = _dates(column)
        elif name == "Result":
            column = pandas.Series(pandas.Categorical(column, categories=RESULTS), index=frame.index)
        columns[name] = column
    return pandas.DataFrame(columns, index=frame.index, columns=frame.columns)
