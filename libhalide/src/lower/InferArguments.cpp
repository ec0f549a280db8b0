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

class FindInputs : public IRVisitor {
public:
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
        if (!buffer.empty() && seen_.insert(buffer).second) {
            buffers.push_back(buffer);
        }
    }

private:
    std::set<std::string> seen_;
};

} // namespace

void infer_arguments(const Stmt &s, const std::vector<FunctionPtr> &outputs, LoweredPipeline &result) {
    FindInputs inputs;
    inputs.include(s);
    for (const std::string &name : inputs.buffers) {
        InputBufferPtr b = find_input_buffer(name);
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
