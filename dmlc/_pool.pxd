cimport numpy as cnp

# np.empty(dims) of typenum (whose element size is itemsize) in C order: arrays of
# POOL_MIN_BYTES or more take their memory from the bounded pool of freed outputs.
cdef cnp.ndarray new_array(int nd, cnp.npy_intp* dims, int typenum, Py_ssize_t itemsize)
