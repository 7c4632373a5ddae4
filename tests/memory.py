"""Whether an object is still alive, asked without keeping it alive."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable


def alive_check(obj: object) -> Callable[[], bool]:
    """A check that ``obj`` is still alive: by a weak reference where its type takes one,
    else (compiled (mypyc) classes take none) by the collector's list of live objects."""
    try:
        reference = weakref.ref(obj)
    except TypeError:
        ident, kind = id(obj), type(obj)
        return lambda: any(id(o) == ident and type(o) is kind for o in gc.get_objects())
    return lambda: reference() is not None
