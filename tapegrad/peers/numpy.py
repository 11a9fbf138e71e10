"""NumPy's names (docs/coming-from.md#numpy). tg has NumPy's names for its ops; here are
NumPy's synonyms of them, its dtypes and constants, and names whose meaning differs. Any
other name of ``tapegrad.numpy`` gets a message pointing there."""

from tapegrad.peers.rows import Name, Table

_SYNONYM = "the same function as NumPy's"
_OBJECT = "NumPy's own object"

TABLE = Table(
    "NumPy",
    "numpy",
    (
        Name("tg", "absolute", "tg.abs", _SYNONYM, alias=True),
        Name("tg", "amax", "tg.max", _SYNONYM, alias=True),
        Name("tg", "amin", "tg.min", _SYNONYM, alias=True),
        Name("tg", "around", "tg.round", _SYNONYM, alias=True),
        Name("tg", "acos", "tg.arccos", _SYNONYM, alias=True),
        Name("tg", "asin", "tg.arcsin", _SYNONYM, alias=True),
        Name("tg", "atan", "tg.arctan", _SYNONYM, alias=True),
        Name("tg", "atan2", "tg.arctan2", _SYNONYM, alias=True),
        Name("tg", "acosh", "tg.arccosh", _SYNONYM, alias=True),
        Name("tg", "asinh", "tg.arcsinh", _SYNONYM, alias=True),
        Name("tg", "atanh", "tg.arctanh", _SYNONYM, alias=True),
        Name("tg", "pow", "tg.power", _SYNONYM, alias=True),
        Name("tg", "true_divide", "tg.divide", _SYNONYM, alias=True),
        Name("tg", "concat", "tg.concatenate", _SYNONYM, alias=True),
        Name("tg", "float32", "tapegrad.numpy.float32", _OBJECT, alias=True),
        Name("tg", "float64", "tapegrad.numpy.float64", _OBJECT, alias=True),
        Name("tg", "int32", "tapegrad.numpy.int32", _OBJECT, alias=True),
        Name("tg", "int64", "tapegrad.numpy.int64", _OBJECT, alias=True),
        Name("tg", "complex64", "tapegrad.numpy.complex64", _OBJECT, alias=True),
        Name("tg", "complex128", "tapegrad.numpy.complex128", _OBJECT, alias=True),
        Name("tg", "pi", "tapegrad.numpy.pi", _OBJECT, alias=True),
        Name("tg", "e", "tapegrad.numpy.e", _OBJECT, alias=True),
        Name("tg", "inf", "tapegrad.numpy.inf", _OBJECT, alias=True),
        Name("tg", "nan", "tapegrad.numpy.nan", _OBJECT, alias=True),
        Name("tg", "newaxis", "tapegrad.numpy.newaxis", _OBJECT, alias=True),
        Name(
            "tg",
            "array",
            "tg.tensor",
            "tg.tensor(data, dtype=None) makes a Tensor; "
            "tapegrad.numpy.array is NumPy's (an ndarray, or a Tensor from Tensors)",
        ),
        Name(
            "tg",
            "empty",
            "tg.zeros",
            "Tensors are immutable, so an uninitialised one is of no use: tg.zeros(shape)",
        ),
        Name("tg", "identity", "tg.eye", "tg.eye(n)"),
        Name(
            "tg",
            "ndarray",
            "tg.Tensor",
            "tg.Tensor wraps a backend array (x.data); x.numpy() is a host ndarray",
        ),
    ),
)
