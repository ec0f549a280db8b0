// See Passes.h: the arguments of the entry point. Input buffers and scalar
// parameters in the order the pipeline first uses them, then the outputs
// (a Func defined with a Tuple has one buffer per value).
#include <set>

#include "Halide/Error.h"
#include "Halide/IRVisitor.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// The output buffer `name` ("f", or "f.k" for value k of a Tuple) of a
// Func that is not one of the pipeline's outputs, if a constraint reads its
// fields ("f.extent.0"): as upstream, the pipeline then takes that buffer as
// an input (to be passed, or reported missing), not a symbol nothing binds.
InputBufferPtr output_buffer_of_other_func(const std::string &name, const std::vector<FunctionPtr> &outputs) {
    for (std::string func = name;;) {
        if (FunctionPtr f = find_function(func)) {
            for (const FunctionPtr &o : outputs) {
                if (o->name == f->name) {
                    return nullptr;
                }
            }
            for (const InputBufferPtr &b : f->output_buffers) {
                if (b->name == name) {
                    return b;
                }
            }
        }
        size_t dot = func.rfind('.');
        if (dot == std::string::npos || func != name) {
            return nullptr;
        }
        func = func.substr(0, dot);
    }
}

// The buffer `var` is a field of ("<buffer>.min.0", ".extent.", ".max.",
// ".stride."), if it is one of another Func's output buffers; else empty.
std::string other_output_of_field(const std::string &var, const std::vector<FunctionPtr> &outputs) {
    for (const char *field : {".min.", ".extent.", ".max.", ".stride."}) {
        size_t at = var.rfind(field);
        if (at != std::string::npos && at > 0 && output_buffer_of_other_func(var.substr(0, at), outputs)) {
            return var.substr(0, at);
        }
    }
    return std::string();
}

class FindInputs : public IRVisitor {
public:
    explicit FindInputs(const std::vector<FunctionPtr> &outputs) : outputs_(outputs) {}
    std::vector<std::string> buffers, params;

    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Image && seen_.insert(op->name).second) {
            buffers.push_back(op->name);
        }
    }
    void visit(const Variable *op) override {
        if (!seen_.count(op->name) && find_param(op->name)) {
            seen_.insert(op->name);
            params.push_back(op->name);
        }
        // im.dim(d).extent() and friends make `im` an argument too.
        std::string buffer = input_buffer_of_field(op->name);
        if (buffer.empty()) {
            buffer = other_output_of_field(op->name, outputs_);
        }
        if (!buffer.empty() && seen_.insert(buffer).second) {
            buffers.push_back(buffer);
        }
    }

private:
    const std::vector<FunctionPtr> &outputs_;
    std::set<std::string> seen_;
};

} // namespace

void infer_arguments(const Stmt &s, const std::vector<FunctionPtr> &outputs, LoweredPipeline &result) {
    FindInputs inputs(outputs);
    inputs.include(s);
    // The outputs' constraints (checked by AddImageChecks, later) read
    // arguments too.
    for (const FunctionPtr &f : outputs) {
        for (const InputBufferPtr &b : f->output_buffers) {
            for (const DimensionConstraint &c : b->constraints) {
                for (const Expr &e : {c.min, c.extent, c.stride}) {
                    if (e.defined()) {
                        inputs.include(e);
                    }
                }
            }
        }
    }
    for (const std::string &name : inputs.buffers) {
        InputBufferPtr b = find_input_buffer(name);
        if (!b) {
            b = output_buffer_of_other_func(name, outputs);
        }
        internal_assert(b) << "unknown input buffer " << name;
        result.func.args.push_back({name, LoweredArgument::InputBuffer, b->type, b->dimensions});
        result.func.args.back().buffer_estimates = b->estimates;
        ArgumentSource src;
        src.buffer = b;
        result.sources.push_back(src);
    }
    for (const std::string &name : inputs.params) {
        ParamPtr p = find_param(name);
        result.func.args.push_back({name, LoweredArgument::Scalar, p->type, 0});
        ArgumentSource src;
        src.param = p;
        result.sources.push_back(src);
    }
    // One buffer per output value: f, or f.0, f.1, ... for a Tuple (upstream's names).
    int index = 0;
    for (const FunctionPtr &f : outputs) {
        for (size_t v = 0; v < f->values.size(); v++) {
            std::string name = f->values.size() == 1 ? f->name : f->name + "." + std::to_string(v);
            result.func.args.push_back({name, LoweredArgument::OutputBuffer, f->values[v].type(), (int)f->args.size()});
            result.func.args.back().buffer_estimates = f->estimates;
            if (v < f->output_buffers.size() && !f->output_buffers[v]->estimates.empty()) {
                result.func.args.back().buffer_estimates = f->output_buffers[v]->estimates; // dim(d).set_estimate
            }
            ArgumentSource src;
            src.output_index = index++;
            result.sources.push_back(src);
        }
    }
}

} // namespace Internal
} // namespace Halide
