"""The compiled inner loops (Cython, built when lshdesk is installed; ``nogil``): one module per kind of loop."""
