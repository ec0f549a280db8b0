"""Example Halide kernel plugin: ``imaging.invert``, ``imaging.box_blur``, ``imaging.gradient``.

Nothing needs to import this package: halide.runtime finds the kernels from
the manifest (halide_kernels.json) next to this file, through the
``halide.kernels`` entry point. Use them with::

    import halide.runtime as hlr

    out = hlr.kernel("imaging.invert")(image, output_shape=image.shape)
"""

from pathlib import Path

__version__ = "0.1.0"

#: The manifest listing this plugin's kernels.
MANIFEST = Path(__file__).with_name("halide_kernels.json")
