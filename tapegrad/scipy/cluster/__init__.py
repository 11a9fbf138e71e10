"""SciPy's clustering with gradients: :mod:`.vq` (vq, whiten, kmeans2), under SciPy's
names and signatures. Every other name (``hierarchy``, ``vq.kmeans``, ...) is SciPy's own
object, for plain arrays.

>>> import tapegrad as tg
>>> from tapegrad.scipy import cluster
>>> cluster.vq.whiten(tg.tensor([[1.0], [3.0]])).numpy()
array([[1.],
       [3.]])
"""

from tapegrad.scipy._dispatch import scipy_getattr
from tapegrad.scipy.cluster import vq

__all__ = ["vq"]

__getattr__ = scipy_getattr(__name__, "scipy.cluster")
