"""nki.language.NKIObject: the base class of NKI kernels' configuration
objects and dataclasses (NKI 0.6 `nki/api/nki/language/__init__.py`:
`class NKIObject` with `__init__(self, **kwargs)`).

nki-library subclasses it two ways, and both work here:

    class Dims(nl.NKIObject):          # no @dataclass: Dims(T=4, H=8) sets
        T: int                         # the keywords as attributes
        H: int

    @dataclass
    class Section(nl.NKIObject):       # @dataclass with fields written without
        index = None                   # an annotation: Section(index=3) takes
        offset = 0                     # them as keyword fields

A plain Python dataclass ignores an attribute without an annotation (it is a
class attribute, not a field), so `Section(index=3)` would be a TypeError;
NKI accepts it. Each subclass's unannotated attributes are therefore given
an annotation when the class is made (before @dataclass looks at it), so
that they become fields with their value as default. Methods, properties,
nested classes, names starting with '_' and unhashable values (a list or
dict, which a dataclass refuses as a default) are left alone.
"""
import inspect
import typing


class NKIObject:
    """Base class for NKI kernel dataclasses and configuration objects."""

    def __init__(self, **kwargs):
        # NKI 0.6: NKIObject(**kwargs); a subclass without its own __init__
        # (and no @dataclass) is built from keywords, each set as an attribute.
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _annotate_plain_fields(cls)

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


def _is_plain_field(name, value):
    """Whether the class attribute `name = value` is a value a dataclass can
    take as a field's default (or a `dataclasses.field(...)`), rather than a
    method, property, nested class, private name or unhashable value."""
    if name.startswith("_") or isinstance(value, type) or type(value).__hash__ is None:
        return False
    return not (inspect.isroutine(value) or hasattr(value, "__get__") or hasattr(value, "__set__"))


def _annotate_plain_fields(cls):
    """Gives each unannotated value attribute of `cls` (its own, not its
    bases') an annotation, so that @dataclass makes it a keyword field with
    that default; without @dataclass the annotation changes nothing."""
    own = cls.__dict__
    annotations = own.get("__annotations__")
    if annotations is None:
        annotations = {}
        cls.__annotations__ = annotations
    for name, value in list(own.items()):
        if name in annotations or not _is_plain_field(name, value):
            continue
        annotations[name] = typing.Any
