// Calls the upstream_forms kernel (upstream_forms_generator.cpp) as one
// compiler built it twice: with C names (FORMS_H) and with C++ names in
// ns1::ns2 (FORMS_NS_H, -f ns1::ns2::upstream_forms). Checks every output
// against values computed here, checks both builds agree, then prints the
// metadata and the outputs so that compare_upstream_forms.py can compare
// the builds of two compilers line by line.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include FORMS_H
#include FORMS_NS_H

namespace {

constexpr int W = 19, H = 6; // not a multiple of the vector width
int failures = 0;

void check(bool ok, const std::string &what) {
    if (!ok && failures++ < 20) {
        std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    }
}

// A dense W x H buffer of one element type; not copyable (dim points into it).
struct Image {
    Image(halide_type_code_t code, int bits) : bytes(W * H * bits / 8) {
        buf = halide_buffer_t();
        for (int d = 0; d < 2; d++) {
            dim[d].min = 0;
            dim[d].extent = d == 0 ? W : H;
            dim[d].stride = d == 0 ? 1 : W;
            dim[d].flags = 0;
        }
        buf.host = bytes.data();
        buf.type.code = code;
        buf.type.bits = (uint8_t)bits;
        buf.type.lanes = 1;
        buf.dimensions = 2;
        buf.dim = dim;
    }
    Image(const Image &) = delete;
    template <typename T> T &at(int x, int y) { return reinterpret_cast<T *>(bytes.data())[x + y * W]; }
    std::vector<uint8_t> bytes;
    halide_dimension_t dim[2];
    halide_buffer_t buf;
};

struct Outputs {
    Image combined0{halide_type_uint, 8}, combined1{halide_type_float, 32};
    Image scaled[3] = {{halide_type_int, 32}, {halide_type_int, 32}, {halide_type_int, 32}};
    Image diffs[2] = {{halide_type_int, 16}, {halide_type_int, 16}};
    Image assigned{halide_type_int, 32};
    std::vector<Image *> all() {
        return {&combined0, &combined1, &scaled[0], &scaled[1], &scaled[2], &diffs[0], &diffs[1], &assigned};
    }
};

struct Inputs {
    Image images[3] = {{halide_type_uint, 8}, {halide_type_uint, 8}, {halide_type_uint, 8}};
    Image bias{halide_type_int, 16};
    Image extras[2] = {{halide_type_uint, 16}, {halide_type_uint, 16}};
    int32_t gains[2] = {3, -2};
    Inputs() {
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                for (int k = 0; k < 3; k++) {
                    images[k].at<uint8_t>(x, y) = (uint8_t)((x * 7 + y * 13 + k * 50) % 256);
                }
                bias.at<int16_t>(x, y) = (int16_t)((x - 3 * y) * 5);
                for (int k = 0; k < 2; k++) {
                    extras[k].at<uint16_t>(x, y) = (uint16_t)(x * y * (k + 1) + 60000 * k);
                }
            }
        }
    }
};

template <typename F> int call(F kernel, Inputs &in, Outputs &out) {
    return kernel(&in.images[0].buf, &in.images[1].buf, &in.images[2].buf, &in.bias.buf, in.gains[0], in.gains[1],
                  &in.extras[0].buf, &in.extras[1].buf, &out.combined0.buf, &out.combined1.buf, &out.scaled[0].buf,
                  &out.scaled[1].buf, &out.scaled[2].buf, &out.diffs[0].buf, &out.diffs[1].buf, &out.assigned.buf);
}

// The values upstream_forms_generator.cpp documents, for op=max copies=3.
void check_values(Inputs &in, Outputs &out) {
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            std::string at = " at " + std::to_string(x) + "," + std::to_string(y);
            int32_t acc = 0;
            for (auto &image : in.images) {
                acc = std::max<int32_t>(acc, image.at<uint8_t>(x, y));
            }
            int32_t bias = in.bias.at<int16_t>(x, y);
            check(out.combined0.at<uint8_t>(x, y) == (uint8_t)acc, "combined.0" + at);
            check(out.combined1.at<float>(x, y) == (float)acc + (float)bias, "combined.1" + at);
            for (int i = 0; i < 3; i++) {
                int32_t want = acc * in.gains[i % 2] + i + in.extras[i % 2].at<uint16_t>(x, y);
                check(out.scaled[i].at<int32_t>(x, y) == want, "scaled_" + std::to_string(i) + at);
            }
            for (int i = 0; i < 2; i++) {
                int want = (int16_t)in.images[i].at<uint8_t>(x, y) - bias + (int16_t)in.extras[i].at<uint16_t>(x, y);
                check(out.diffs[i].at<int16_t>(x, y) == (int16_t)want, "diffs_" + std::to_string(i) + at);
            }
            check(out.assigned.at<int32_t>(x, y) == acc + x + 100 * y, "assigned" + at);
        }
    }
}

void print_metadata(const halide_filter_metadata_t *md) {
    std::printf("metadata %s: %d arguments\n", md->name, md->num_arguments);
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t &a = md->arguments[i];
        std::printf("  %s kind=%d type=%d/%d dimensions=%d\n", a.name, a.kind, (int)a.type.code, (int)a.type.bits,
                    a.dimensions);
    }
}

void print_outputs(Outputs &out) {
    const char *names[] = {"combined.0", "combined.1", "scaled_0", "scaled_1",
                           "scaled_2",   "diffs_0",    "diffs_1",  "assigned"};
    std::vector<Image *> all = out.all();
    for (size_t k = 0; k < all.size(); k++) {
        std::printf("%s:", names[k]);
        for (uint8_t b : all[k]->bytes) {
            std::printf(" %02x", b);
        }
        std::printf("\n");
    }
}

} // namespace

int main() {
    Inputs in;
    Outputs c_named, cpp_named;
    int rc = call(upstream_forms, in, c_named);
    check(rc == 0, "upstream_forms returned " + std::to_string(rc));
    rc = call(ns1::ns2::upstream_forms, in, cpp_named);
    check(rc == 0, "ns1::ns2::upstream_forms returned " + std::to_string(rc));
    check_values(in, c_named);
    std::vector<Image *> a = c_named.all(), b = cpp_named.all();
    for (size_t k = 0; k < a.size(); k++) {
        check(a[k]->bytes == b[k]->bytes, "output " + std::to_string(k) + " differs between the two builds");
    }
    // The argv form and the metadata under their C++ names too.
    Outputs by_argv;
    void *args[16] = {&in.images[0].buf, &in.images[1].buf, &in.images[2].buf, &in.bias.buf,
                      &in.gains[0],      &in.gains[1],      &in.extras[0].buf, &in.extras[1].buf};
    std::vector<Image *> outs = by_argv.all();
    for (size_t k = 0; k < outs.size(); k++) {
        args[8 + k] = &outs[k]->buf;
    }
    rc = ns1::ns2::upstream_forms_argv(args);
    check(rc == 0 && by_argv.assigned.bytes == c_named.assigned.bytes, "ns1::ns2::upstream_forms_argv");
    const halide_filter_metadata_t *md = upstream_forms_metadata(), *ns_md = ns1::ns2::upstream_forms_metadata();
    check(md->num_arguments == 16 && ns_md->num_arguments == 16, "16 arguments in the metadata");
    check(std::strcmp(ns_md->name, "upstream_forms") == 0, "the metadata names the function without namespaces");

    print_metadata(md);
    print_metadata(ns_md);
    print_outputs(c_named);
    if (failures) {
        std::fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    return 0;
}
