"""The template plugin's kernels, as Python Generators (docs/plugins.md).

Run by the build once per kernel and CPU level (hl.main() takes the
generator command line: -g NAME -o DIR -e shared_library target=...).
"""

import halide as hl

x, y = hl.Var("x"), hl.Var("y")


@hl.generator(name="brighten")
class Brighten:
    input = hl.InputBuffer(hl.UInt(8), 2)
    amount = hl.InputScalar(hl.UInt(8))
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        g.output[x, y] = hl.u8(hl.min(hl.u16(g.input[x, y]) + g.amount, 255))
        # The schedule: vectors of the CPU level's width (a narrower image or
        # the last columns computed lane by lane: GuardWithIf), rows in parallel.
        g.output.vectorize(x, g.natural_vector_size(hl.UInt(8)), hl.TailStrategy.GuardWithIf).parallel(y)


if __name__ == "__main__":
    hl.main()
