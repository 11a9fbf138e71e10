"""SciPy's spatial algorithms with gradients: :mod:`.distance` (cdist, pdist, squareform
and the single-vector distances) and :mod:`.transform` (Rotation, Slerp), under SciPy's
names and signatures. Every other name of scipy.spatial (KDTree, ConvexHull, Delaunay,
Voronoi, ...) is SciPy's own object, for plain arrays.

>>> import tapegrad as tg
>>> from tapegrad.scipy import spatial
>>> spatial.distance.cdist(tg.tensor([[0.0, 0.0]]), tg.tensor([[3.0, 4.0]])).numpy()
array([[5.]])
>>> spatial.KDTree.__module__
'scipy.spatial._kdtree'
"""

from tapegrad.scipy._dispatch import scipy_getattr
from tapegrad.scipy.spatial import distance, transform

__all__ = ["distance", "transform"]

__getattr__ = scipy_getattr(__name__, "scipy.spatial")
