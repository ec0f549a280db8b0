"""A Halide kernel plugin made from plugins/template.

Nothing needs to import this package: halide.runtime finds the kernels
through the ``halide.kernels`` entry point and the manifest next to this
file (halide_kernels.json, written by the build)::

    import halide.runtime as hlr

    out = hlr.kernel("template.brighten")(image, 40, output_shape=image.shape)
"""

__version__ = "0.1.0"
