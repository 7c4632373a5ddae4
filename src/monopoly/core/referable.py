"""A plain Python base class for compiled classes that must take weak references."""


class WeakReferable:
    """Instances of a class compiled by mypyc take no weak references, unless it derives
    from a plain Python class: then it gets ``__weakref__`` (and ``__dict__``) as an
    interpreted class has. The server and the tests hold games by weak reference to see
    them freed. This module is never compiled."""
