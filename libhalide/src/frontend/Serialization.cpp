// serialize_pipeline: the Funcs, input buffers, Params and RDoms a pipeline
// reaches, written in the layout of SerializationFormat.h (declarations of
// every object first, then their bodies, then the outputs).
#include "Halide/Serialization.h"

#include <fstream>
#include <set>

#include "Halide/Buffer.h"
#include "Halide/Func.h"
#include "Halide/IR.h"
#include "Halide/IRVisitor.h"
#include "ParamValues.h"
#include "SerializationFields.h"
#include "SerializationFormat.h"

namespace Halide {

using namespace Internal;
using namespace Internal::Serial;

namespace {

// Everything reachable from the outputs, in discovery order.
class Collector : public IRVisitor {
public:
    std::vector<FunctionPtr> funcs;
    std::vector<InputBufferPtr> buffers;
    std::vector<ParamPtr> params;
    std::vector<ReductionDomainPtr> rdoms;

    void add(const FunctionPtr &f) {
        if (f && seen_.insert(f.get()).second) {
            funcs.push_back(f);
        }
    }
    void add(const InputBufferPtr &b) {
        if (b && seen_.insert(b.get()).second) {
            buffers.push_back(b);
        }
    }
    void add(const ParamPtr &p) {
        if (p && seen_.insert(p.get()).second) {
            params.push_back(p);
        }
    }
    void add(const ReductionDomainPtr &r) {
        if (r && seen_.insert(r.get()).second) {
            rdoms.push_back(r);
        }
    }

    // The archive hooks (see SerializationFields.h).
    void io(bool &) {}
    void io(int &) {}
    void io(uint64_t &) {}
    void io(std::string &) {}
    void io(Expr &e) { include(e); }
    size_t size(size_t n) { return n; }
    void func_name(std::string &n) {
        if (!n.empty()) {
            add(find_function(n));
        }
    }
    void any_name(std::string &n) {
        func_name(n);
        if (!n.empty()) {
            add(find_input_buffer(n));
        }
    }
    void local_name(std::string &) {}
    void rdom(ReductionDomainPtr &r) { add(r); }

    // Walks the objects found until nothing new turns up.
    void run() {
        size_t f = 0, b = 0, p = 0, r = 0;
        while (f < funcs.size() || b < buffers.size() || p < params.size() || r < rdoms.size()) {
            for (; f < funcs.size(); f++) {
                FunctionPtr fn = funcs[f];
                user_assert(!fn->extern_def) << "serialize_pipeline: Func '" << fn->name
                                             << "' is defined with define_extern, which can't be serialized";
                io_function_body(*this, *fn);
                for (auto &w : fn->wrappers) {
                    add(w.second);
                }
            }
            for (; b < buffers.size(); b++) {
                InputBufferPtr buf = buffers[b];
                io_buffer_body(*this, *buf);
                for (auto &w : buf->wrappers) {
                    add(w.second);
                }
            }
            for (; p < params.size(); p++) {
                io_param_body(*this, *params[p]);
            }
            for (; r < rdoms.size(); r++) {
                for (ReductionVariable &v : rdoms[r]->domain) {
                    include(v.min);
                    include(v.extent);
                }
                for (const Expr &e : rdoms[r]->predicates) {
                    include(e);
                }
            }
        }
    }

    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide) {
            add(find_function(op->name));
        } else if (op->call_type == Call::Image) {
            add(find_input_buffer(op->name));
        }
    }
    void visit(const Variable *op) override {
        add(find_param(op->name));
        std::string b = input_buffer_of_field(op->name);
        if (!b.empty()) {
            add(find_input_buffer(b));
        }
        add(find_reduction_domain_of(op->name));
    }

private:
    std::set<const void *> seen_;
};

// The writing archive.
class Out {
public:
    Writer w;

    void io(bool &b) { w.boolean(b); }
    void io(int &v) { w.i32(v); }
    void io(uint64_t &v) { w.u64(v); }
    void io(std::string &s) { w.str(s); }
    void io(Type &t) { w.type(t); }
    void io(Expr &e) { expr(e); }
    size_t size(size_t n) {
        w.u32((uint32_t)n);
        return n;
    }
    void func_name(std::string &n) { w.str(n); }
    void any_name(std::string &n) { w.str(n); }
    void local_name(std::string &n) { w.str(n); }
    void rdom(ReductionDomainPtr &r) { w.str(r ? r->name : std::string()); }

    void exprs(const std::vector<Expr> &v) {
        w.u32((uint32_t)v.size());
        for (const Expr &e : v) {
            expr(e);
        }
    }

    void expr(const Expr &e) {
        if (!e.defined()) {
            w.u8(kNoExpr);
            return;
        }
        w.u8(uint8_t(1 + (int)e->node_type));
        w.type(e.type());
        switch (e->node_type) {
        case IRNodeType::IntImm: w.i64(e.as<IntImm>()->value); break;
        case IRNodeType::UIntImm: w.u64(e.as<UIntImm>()->value); break;
        case IRNodeType::FloatImm: w.f64(e.as<FloatImm>()->value); break;
        case IRNodeType::StringImm: w.str(e.as<StringImm>()->value); break;
        case IRNodeType::Cast: expr(e.as<Cast>()->value); break;
        case IRNodeType::Variable: w.str(e.as<Variable>()->name); break;
#define HALIDE_SERIALIZE_BINARY(N)                                                                                     \
    case IRNodeType::N:                                                                                                \
        expr(e.as<N>()->a);                                                                                            \
        expr(e.as<N>()->b);                                                                                            \
        break;
            HALIDE_SERIALIZE_BINARY(Add)
            HALIDE_SERIALIZE_BINARY(Sub)
            HALIDE_SERIALIZE_BINARY(Mul)
            HALIDE_SERIALIZE_BINARY(Div)
            HALIDE_SERIALIZE_BINARY(Mod)
            HALIDE_SERIALIZE_BINARY(Min)
            HALIDE_SERIALIZE_BINARY(Max)
            HALIDE_SERIALIZE_BINARY(EQ)
            HALIDE_SERIALIZE_BINARY(NE)
            HALIDE_SERIALIZE_BINARY(LT)
            HALIDE_SERIALIZE_BINARY(LE)
            HALIDE_SERIALIZE_BINARY(GT)
            HALIDE_SERIALIZE_BINARY(GE)
            HALIDE_SERIALIZE_BINARY(And)
            HALIDE_SERIALIZE_BINARY(Or)
#undef HALIDE_SERIALIZE_BINARY
        case IRNodeType::Not: expr(e.as<Not>()->a); break;
        case IRNodeType::Select: {
            const Select *s = e.as<Select>();
            expr(s->condition);
            expr(s->true_value);
            expr(s->false_value);
            break;
        }
        case IRNodeType::Load:
            w.str(e.as<Load>()->name);
            expr(e.as<Load>()->index);
            break;
        case IRNodeType::Ramp:
            expr(e.as<Ramp>()->base);
            expr(e.as<Ramp>()->stride);
            w.i32(e.as<Ramp>()->lanes);
            break;
        case IRNodeType::Broadcast:
            expr(e.as<Broadcast>()->value);
            w.i32(e.as<Broadcast>()->lanes);
            break;
        case IRNodeType::Call: {
            const Call *c = e.as<Call>();
            w.str(c->name);
            w.u8((uint8_t)c->call_type);
            w.i32(c->value_index);
            w.boolean(c->callee != nullptr);
            exprs(c->args);
            break;
        }
        case IRNodeType::Let:
            w.str(e.as<Let>()->name);
            expr(e.as<Let>()->value);
            expr(e.as<Let>()->body);
            break;
        default: internal_error << "serialize_pipeline: a statement node in an expression";
        }
    }
};

// A concrete Buffer's elements, dense, first dimension innermost.
void write_buffer_elements(Writer &w, const InputBufferContents &b) {
    w.boolean(b.bound != nullptr);
    if (!b.bound) {
        return;
    }
    Runtime::Buffer<void> view(*b.bound);
    std::vector<int> sizes;
    for (int d = 0; d < view.dimensions(); d++) {
        sizes.push_back(view.dim(d).extent());
        w.i32(view.dim(d).min());
        w.i32(view.dim(d).extent());
    }
    Runtime::Buffer<void> dense(view.type(), sizes);
    for (int d = 0; d < view.dimensions(); d++) {
        dense.translate(d, view.dim(d).min());
    }
    dense.copy_from(view);
    w.u64(dense.size_in_bytes());
    w.raw(dense.data(), dense.size_in_bytes());
}

std::vector<uint8_t> serialize(const Pipeline &pipeline, std::map<std::string, Parameter> *params) {
    user_assert(pipeline.defined()) << "serialize_pipeline: the Pipeline is undefined";
    Collector c;
    std::vector<Func> outputs = pipeline.outputs();
    for (const Func &f : outputs) {
        user_assert(f.defined()) << "serialize_pipeline: output Func '" << f.name() << "' is undefined";
        c.add(f.function());
    }
    c.run();

    Out o;
    Writer &w = o.w;
    w.raw(kMagic, sizeof(kMagic));
    w.u32(kVersion);
    // Declarations.
    w.u32((uint32_t)c.params.size());
    for (const ParamPtr &p : c.params) {
        w.str(p->name);
        w.str(p->user_name);
        w.type(p->type);
    }
    w.u32((uint32_t)c.buffers.size());
    for (const InputBufferPtr &b : c.buffers) {
        w.str(b->name);
        w.str(b->user_name);
        w.type(b->type);
        w.i32(b->dimensions);
        w.boolean(b->concrete);
    }
    w.u32((uint32_t)c.rdoms.size());
    for (const ReductionDomainPtr &r : c.rdoms) {
        w.str(r->name);
        w.u32((uint32_t)r->domain.size());
        for (const ReductionVariable &v : r->domain) {
            w.str(v.var);
        }
    }
    w.u32((uint32_t)c.funcs.size());
    for (const FunctionPtr &f : c.funcs) {
        w.str(f->name);
    }
    // Bodies.
    for (const ParamPtr &p : c.params) {
        io_param_body(o, *p);
    }
    for (const InputBufferPtr &b : c.buffers) {
        io_buffer_body(o, *b);
        w.u32((uint32_t)b->wrappers.size());
        for (auto &kv : b->wrappers) {
            w.str(kv.first);
            w.str(kv.second->name);
        }
        if (b->concrete) {
            write_buffer_elements(w, *b);
        }
    }
    for (const ReductionDomainPtr &r : c.rdoms) {
        for (const ReductionVariable &v : r->domain) {
            o.expr(v.min);
            o.expr(v.extent);
        }
        o.exprs(r->predicates);
    }
    for (const FunctionPtr &f : c.funcs) {
        io_function_body(o, *f);
        w.u32((uint32_t)f->wrappers.size());
        for (auto &kv : f->wrappers) {
            w.str(kv.first);
            w.str(kv.second->name);
        }
    }
    w.u32((uint32_t)outputs.size());
    for (const Func &f : outputs) {
        w.str(f.name());
    }
    if (params) {
        params->clear();
        for (const ParamPtr &p : c.params) {
            (*params)[p->user_name] = Parameter(p);
        }
        for (const InputBufferPtr &b : c.buffers) {
            if (!b->concrete) {
                (*params)[b->user_name] = Parameter(b);
            }
        }
    }
    return std::move(w.bytes);
}

void write_file(const std::string &filename, const std::vector<uint8_t> &data) {
    std::ofstream f(filename, std::ios::binary | std::ios::trunc);
    user_assert(f.good()) << "serialize_pipeline: can't open '" << filename << "' for writing";
    f.write((const char *)data.data(), (std::streamsize)data.size());
    user_assert(f.good()) << "serialize_pipeline: can't write '" << filename << "'";
}

} // namespace

void serialize_pipeline(const Pipeline &pipeline, std::vector<uint8_t> &data) {
    data = serialize(pipeline, nullptr);
}

void serialize_pipeline(const Pipeline &pipeline, std::vector<uint8_t> &data,
                        std::map<std::string, Parameter> &params) {
    data = serialize(pipeline, &params);
}

void serialize_pipeline(const Pipeline &pipeline, const std::string &filename) {
    write_file(filename, serialize(pipeline, nullptr));
}

void serialize_pipeline(const Pipeline &pipeline, const std::string &filename,
                        std::map<std::string, Parameter> &params) {
    write_file(filename, serialize(pipeline, &params));
}

} // namespace Halide
