// deserialize_pipeline / deserialize_parameters: reads the layout
// Serialization.cpp writes. Every object gets a new name (its old one when
// free), and every reference to it in the data is renamed to match.
#include <cstring>
#include <fstream>
#include <iterator>

#include "Halide/Buffer.h"
#include "Halide/Func.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/Serialization.h"
#include "ParamValues.h"
#include "ReductionDomainUse.h"
#include "SerializationFields.h"
#include "SerializationFormat.h"

namespace Halide {

using namespace Internal;
using namespace Internal::Serial;

namespace {

// The reading archive: fills fields in, renaming as it goes.
class In {
public:
    In(const uint8_t *data, size_t size) : r(data, size) {}

    Reader r;
    std::map<std::string, ParamPtr> params; // by old name
    std::map<std::string, InputBufferPtr> buffers;
    std::map<std::string, ReductionDomainPtr> rdoms;
    std::map<std::string, FunctionPtr> funcs;
    std::map<std::string, std::string> renamed_rdoms; // old RDom name -> new, where they differ
    // What the object being read refers to (its `referenced` list).
    std::vector<std::shared_ptr<void>> *refs = nullptr;

    void io(bool &b) { b = r.boolean(); }
    void io(int &v) { v = r.i32(); }
    void io(uint64_t &v) { v = r.u64(); }
    void io(std::string &s) { s = r.str(); }
    void io(Type &t) { t = r.type(); }
    void io(Expr &e) { e = expr(); }
    size_t size(size_t) { return r.count(); }
    void func_name(std::string &n) {
        n = r.str();
        if (!n.empty()) {
            auto it = funcs.find(n);
            r.check(it != funcs.end(), "a reference to a Func that is not in the data");
            n = it->second->name;
        }
    }
    void any_name(std::string &n) {
        n = r.str();
        if (auto f = funcs.find(n); f != funcs.end()) {
            n = f->second->name;
        } else if (auto b = buffers.find(n); b != buffers.end()) {
            n = b->second->name;
        }
    }
    void local_name(std::string &n) { n = rename_local(r.str()); }
    void rdom(ReductionDomainPtr &d) {
        std::string n = r.str();
        if (n.empty()) {
            d = nullptr;
            return;
        }
        auto it = rdoms.find(n);
        r.check(it != rdoms.end(), "a reference to an RDom that is not in the data");
        d = it->second;
        keep(d);
    }

    // RVars, and the loops split or fused from them ("r.x_unroll", "r.x$o",
    // "r.x.r.y"), are named after their RDom: renamed with it.
    std::string rename_local(const std::string &n) const {
        std::string best_old, best_new;
        for (const auto &[old_name, new_name] : renamed_rdoms) {
            if (old_name.size() > best_old.size() && n.size() > old_name.size() &&
                n.compare(0, old_name.size(), old_name) == 0 && n[old_name.size()] == '.') {
                best_old = old_name;
                best_new = new_name;
            }
        }
        return best_old.empty() ? n : best_new + n.substr(best_old.size());
    }

    std::string rename_variable(const std::string &n) {
        if (auto it = params.find(n); it != params.end()) {
            keep(it->second);
            return it->second->name;
        }
        std::string b = field_buffer(n);
        if (!b.empty()) {
            auto it = buffers.find(b);
            keep(it->second);
            return it->second->name + n.substr(b.size());
        }
        return rename_local(n);
    }

    Expr expr() {
        uint8_t tag = r.u8();
        if (tag == kNoExpr) {
            return Expr();
        }
        r.check(tag <= 1 + (int)IRNodeType::Let, "an unknown expression node");
        IRNodeType kind = (IRNodeType)(tag - 1);
        Type t = r.type();
        switch (kind) {
        case IRNodeType::IntImm: return IntImm::make(t, r.i64());
        case IRNodeType::UIntImm: return UIntImm::make(t, r.u64());
        case IRNodeType::FloatImm: return FloatImm::make(t, r.f64());
        case IRNodeType::StringImm: return StringImm::make(r.str());
        case IRNodeType::Cast: return Cast::make(t, defined(expr()));
        case IRNodeType::Variable: return Variable::make(t, rename_variable(r.str()));
#define HALIDE_DESERIALIZE_BINARY(N)                                                                                   \
    case IRNodeType::N: {                                                                                              \
        Expr a = defined(expr());                                                                                      \
        Expr b = defined(expr());                                                                                      \
        r.check(a.type() == b.type(), "operands of different types");                                                  \
        return N::make(a, b);                                                                                          \
    }
            HALIDE_DESERIALIZE_BINARY(Add)
            HALIDE_DESERIALIZE_BINARY(Sub)
            HALIDE_DESERIALIZE_BINARY(Mul)
            HALIDE_DESERIALIZE_BINARY(Div)
            HALIDE_DESERIALIZE_BINARY(Mod)
            HALIDE_DESERIALIZE_BINARY(Min)
            HALIDE_DESERIALIZE_BINARY(Max)
            HALIDE_DESERIALIZE_BINARY(EQ)
            HALIDE_DESERIALIZE_BINARY(NE)
            HALIDE_DESERIALIZE_BINARY(LT)
            HALIDE_DESERIALIZE_BINARY(LE)
            HALIDE_DESERIALIZE_BINARY(GT)
            HALIDE_DESERIALIZE_BINARY(GE)
            HALIDE_DESERIALIZE_BINARY(And)
            HALIDE_DESERIALIZE_BINARY(Or)
#undef HALIDE_DESERIALIZE_BINARY
        case IRNodeType::Not: return Not::make(defined(expr()));
        case IRNodeType::Select: {
            Expr c = defined(expr());
            Expr a = defined(expr());
            Expr b = defined(expr());
            r.check(a.type() == b.type(), "select values of different types");
            return Select::make(c, a, b);
        }
        case IRNodeType::Load: {
            std::string name = r.str();
            return Load::make(t, name, defined(expr()));
        }
        case IRNodeType::Ramp: {
            Expr base = defined(expr());
            Expr stride = defined(expr());
            int lanes = r.i32();
            r.check(lanes > 1 && base.type() == stride.type(), "an invalid ramp");
            return Ramp::make(base, stride, lanes);
        }
        case IRNodeType::Broadcast: {
            Expr v = defined(expr());
            int lanes = r.i32();
            r.check(lanes > 1, "an invalid broadcast");
            return Broadcast::make(v, lanes);
        }
        case IRNodeType::Call: return call(t);
        case IRNodeType::Let: {
            std::string name = r.str();
            Expr value = defined(expr());
            Expr body = defined(expr());
            return Let::make(name, value, body);
        }
        default: r.check(false, "a statement node in an expression"); return Expr();
        }
    }

private:
    Expr defined(Expr e) {
        r.check(e.defined(), "an undefined operand");
        return e;
    }

    Expr call(Type t) {
        std::string name = r.str();
        int type = r.u8();
        r.check(type <= (int)Call::Intrinsic, "an unknown call type");
        int value_index = r.i32();
        bool has_callee = r.boolean();
        std::vector<Expr> args;
        for (uint32_t n = r.count(), i = 0; i < n; i++) {
            args.push_back(defined(expr()));
        }
        std::shared_ptr<void> callee;
        if (type == Call::Halide) {
            auto it = funcs.find(name);
            r.check(it != funcs.end(), "a call of a Func that is not in the data");
            name = it->second->name;
            if (has_callee) {
                callee = it->second;
            }
        } else if (type == Call::Image) {
            auto it = buffers.find(name);
            r.check(it != buffers.end(), "a call of a buffer that is not in the data");
            name = it->second->name;
            if (has_callee) {
                callee = it->second;
            }
        }
        if (callee) {
            keep(callee);
        }
        return Call::make(t, name, std::move(args), (Call::CallType)type, value_index, callee);
    }

    // The old name of the buffer whose field `n` is, or "".
    std::string field_buffer(const std::string &n) const {
        for (const char *field : {".min.", ".extent.", ".max.", ".stride."}) {
            size_t at = n.rfind(field);
            if (at != std::string::npos && at > 0 && buffers.count(n.substr(0, at))) {
                return n.substr(0, at);
            }
        }
        return "";
    }

    template <typename T> void keep(const std::shared_ptr<T> &p) {
        if (refs && p) {
            refs->push_back(std::static_pointer_cast<void>(p));
        }
    }
};

void check_header(Reader &r) {
    char magic[sizeof(kMagic)];
    r.raw(magic, sizeof(magic));
    user_assert(std::memcmp(magic, kMagic, sizeof(kMagic)) == 0)
        << "deserialize_pipeline: the data is not a pipeline serialized by this compiler (its header is wrong)";
    uint32_t version = r.u32();
    user_assert(version == kVersion) << "deserialize_pipeline: the data is of serialization format version " << version
                                     << "; this compiler reads version " << kVersion << " only";
}

struct Loaded {
    std::vector<Func> outputs;
    std::map<std::string, Parameter> parameters; // the external ones, by user name
    std::vector<std::shared_ptr<void>> keep;     // every object made (until the outputs hold them)
};

void read_buffer_elements(Reader &r, InputBufferContents &b) {
    if (!r.boolean()) {
        return;
    }
    std::vector<int> mins, sizes;
    for (int d = 0; d < b.dimensions; d++) {
        mins.push_back(r.i32());
        sizes.push_back(r.i32());
        r.check(sizes.back() >= 0, "a negative buffer extent");
    }
    uint64_t bytes = r.u64();
    uint64_t expect = (uint64_t)b.type.bytes();
    for (int s : sizes) {
        expect *= (uint64_t)s;
    }
    r.check(bytes == expect, "a buffer's size does not match its shape");
    auto rb = std::make_shared<SharedRuntimeBuffer>(halide_type_t(b.type), sizes);
    for (int d = 0; d < b.dimensions; d++) {
        rb->translate(d, mins[(size_t)d]);
    }
    r.raw(rb->data(), (size_t)bytes);
    b.bound = rb->raw_buffer();
    b.keep_alive = rb;
    if (b.dimensions > 0) {
        b.constraints.resize((size_t)b.dimensions);
        b.constraints[0].stride = rb->dim(0).stride();
    }
}

// Reads everything; with `params_only`, stops after the Params' and
// buffers' bodies (deserialize_parameters).
Loaded load(const uint8_t *data, size_t size, const std::map<std::string, Parameter> &user_params, bool params_only) {
    In in(data, size);
    Reader &r = in.r;
    check_header(r);
    Loaded out;
    // Declarations: make each object (or take the user's).
    std::vector<std::pair<ParamPtr, bool>> params; // with: read its body
    for (uint32_t n = r.count(), i = 0; i < n; i++) {
        std::string name = r.str(), user = r.str();
        Type t = r.type();
        ParamPtr p;
        auto u = user_params.find(user);
        if (u != user_params.end() && u->second.defined() && !u->second.is_buffer()) {
            p = u->second.scalar_contents();
            user_assert(p->type == t) << "deserialize_pipeline: user parameter '" << user << "' is of type " << p->type
                                      << " but the pipeline's is of type " << t;
        } else {
            p = std::make_shared<ParamContents>();
            p->name = unique_name(name);
            p->user_name = user;
            p->type = t;
            register_param(p);
        }
        in.params[name] = p;
        params.emplace_back(p, u == user_params.end());
        out.keep.push_back(p);
    }
    std::vector<std::pair<InputBufferPtr, bool>> buffers;
    for (uint32_t n = r.count(), i = 0; i < n; i++) {
        std::string name = r.str(), user = r.str();
        Type t = r.type();
        int dims = r.i32();
        bool concrete = r.boolean();
        r.check(dims >= 0 && dims < 1024, "an invalid dimension count");
        InputBufferPtr b;
        auto u = concrete ? user_params.end() : user_params.find(user);
        if (u != user_params.end() && u->second.defined() && u->second.is_buffer()) {
            b = u->second.buffer_contents();
            user_assert(b->type == t && b->dimensions == dims)
                << "deserialize_pipeline: user parameter '" << user << "' is a " << b->dimensions
                << "-dimensional buffer of " << b->type << "; the pipeline's is a " << dims << "-dimensional buffer of "
                << t;
        } else {
            b = std::make_shared<InputBufferContents>();
            b->name = unique_name(name);
            b->user_name = user;
            b->type = t;
            b->dimensions = dims;
            b->concrete = concrete;
            register_input_buffer(b);
        }
        in.buffers[name] = b;
        buffers.emplace_back(b, u == user_params.end());
        out.keep.push_back(b);
    }
    std::vector<ReductionDomainPtr> rdoms;
    for (uint32_t n = r.count(), i = 0; i < n; i++) {
        std::string name = r.str();
        auto d = std::make_shared<ReductionDomainContents>();
        d->name = unique_name(name);
        for (uint32_t k = r.count(), j = 0; j < k; j++) {
            std::string var = r.str();
            r.check(var.compare(0, name.size() + 1, name + ".") == 0, "an RVar not named after its RDom");
            d->domain.push_back({d->name + var.substr(name.size()), Expr(), Expr()});
        }
        if (d->name != name) {
            in.renamed_rdoms[name] = d->name;
        }
        register_reduction_domain(d);
        in.rdoms[name] = d;
        rdoms.push_back(d);
        out.keep.push_back(d);
    }
    std::vector<FunctionPtr> funcs;
    for (uint32_t n = r.count(), i = 0; i < n; i++) {
        std::string name = r.str();
        auto f = std::make_shared<FunctionContents>();
        f->name = unique_name(name);
        register_function(f);
        in.funcs[name] = f;
        funcs.push_back(f);
        out.keep.push_back(f);
    }
    // Bodies.
    for (auto &[p, fresh] : params) {
        ParamContents body;
        io_param_body(in, body);
        if (fresh) {
            p->value = body.value;
            p->has_value = body.has_value;
            p->min_value = body.min_value;
            p->max_value = body.max_value;
            p->default_value = body.default_value;
            p->estimate = body.estimate;
            out.parameters[p->user_name] = Parameter(p);
        }
    }
    for (auto &[b, fresh] : buffers) {
        InputBufferContents body;
        io_buffer_body(in, body);
        std::map<std::string, FunctionPtr> wrappers;
        for (uint32_t n = r.count(), i = 0; i < n; i++) {
            std::string consumer = r.str(), wrapper = r.str();
            consumer = consumer.empty() ? consumer : in.funcs.count(consumer) ? in.funcs[consumer]->name : consumer;
            auto w = in.funcs.find(wrapper);
            r.check(w != in.funcs.end(), "a wrapper that is not in the data");
            wrappers[consumer] = w->second;
        }
        if (fresh) {
            b->estimates = body.estimates;
            b->constraints = body.constraints;
            b->host_alignment = body.host_alignment;
            b->memory_type = body.memory_type;
            b->trace_loads = body.trace_loads;
            b->trace_tags = body.trace_tags;
            b->wrappers = wrappers;
        }
        if (b->concrete && fresh) {
            read_buffer_elements(r, *b);
        } else if (!b->concrete) {
            if (fresh) {
                out.parameters[b->user_name] = Parameter(b);
            }
        }
    }
    if (params_only) {
        return out;
    }
    for (const ReductionDomainPtr &d : rdoms) {
        for (ReductionVariable &v : d->domain) {
            v.min = in.expr();
            v.extent = in.expr();
        }
        for (uint32_t n = r.count(), i = 0; i < n; i++) {
            d->predicates.push_back(in.expr());
        }
        mark_reduction_domain_used(d);
    }
    for (const FunctionPtr &f : funcs) {
        std::vector<std::shared_ptr<void>> refs;
        in.refs = &refs;
        io_function_body(in, *f);
        in.refs = nullptr;
        for (uint32_t n = r.count(), i = 0; i < n; i++) {
            std::string consumer = r.str(), wrapper = r.str();
            consumer = consumer.empty() ? consumer : in.funcs.count(consumer) ? in.funcs[consumer]->name : consumer;
            auto w = in.funcs.find(wrapper);
            r.check(w != in.funcs.end(), "a wrapper that is not in the data");
            f->wrappers[consumer] = w->second;
        }
        for (auto &p : refs) {
            if (p.get() != f.get()) {
                f->referenced.push_back(std::move(p));
            }
        }
        mark_changed(*f);
    }
    for (uint32_t n = r.count(), i = 0; i < n; i++) {
        auto it = in.funcs.find(r.str());
        r.check(it != in.funcs.end(), "an output that is not in the data");
        out.outputs.emplace_back(it->second);
    }
    r.check(out.outputs.size() > 0, "a pipeline without outputs");
    r.check(r.at_end(), "data after the end of the pipeline");
    return out;
}

std::vector<uint8_t> read_stream(std::istream &in) {
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<uint8_t> read_file(const std::string &filename) {
    std::ifstream f(filename, std::ios::binary);
    user_assert(f.good()) << "deserialize_pipeline: can't open '" << filename << "'";
    return read_stream(f);
}

} // namespace

Pipeline deserialize_pipeline(const std::vector<uint8_t> &data, const std::map<std::string, Parameter> &user_params) {
    return Pipeline(load(data.data(), data.size(), user_params, false).outputs);
}

Pipeline deserialize_pipeline(std::istream &in, const std::map<std::string, Parameter> &user_params) {
    return deserialize_pipeline(read_stream(in), user_params);
}

Pipeline deserialize_pipeline(const std::string &filename, const std::map<std::string, Parameter> &user_params) {
    return deserialize_pipeline(read_file(filename), user_params);
}

std::map<std::string, Parameter> deserialize_parameters(const std::vector<uint8_t> &data) {
    return load(data.data(), data.size(), {}, true).parameters;
}

std::map<std::string, Parameter> deserialize_parameters(std::istream &in) {
    return deserialize_parameters(read_stream(in));
}

std::map<std::string, Parameter> deserialize_parameters(const std::string &filename) {
    return deserialize_parameters(read_file(filename));
}

} // namespace Halide
