"""Array backends: which library an array belongs to, its namespace, dtypes and device.

namespaces.py finds an array's namespace (NumPy, CuPy, any array-API library), names
dtypes, copies to the host and moves between devices; standard.py holds what the array
API lacks for the kernels tapegrad calls; devices.py is ``tg.default_device`` and
``tg.device_scope``, and makes new arrays where they belong.

Layer: the bottom one. It imports only ``tapegrad.wording``, NumPy, and CuPy or
array-api-compat when a GPU is asked for.
"""
