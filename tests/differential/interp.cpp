// Runs the pipelines of a batch file written by run_differential.py, so the
// random pipelines need no C++ compilation of their own. Built once against
// our Halide.h and once against upstream's.
//
// A batch file holds, per pipeline:
//   PIPELINE <id> <dims> <width> <height> <output Func> <output type>
//   FUNCS f0 f1 ...
//   DEF f0(x, y) = <C++ expression>;      (one per Func, in order)
//   DEF RDom r0(0, 3); / DEF r0.where(...); / DEF f0(r0.x) += ...;  (RDoms, updates)
//   SCHED <C++ statement>                  (the scheduled variant)
//   UNSCHED <C++ statement>                (the unscheduled variant)
//   END
// The DEF/SCHED/UNSCHED lines are the statements the standalone reproducer
// (gen_pipelines.render_pipeline) compiles; this program parses that subset of
// C++ and makes the same calls: an int literal next to an Expr calls the
// (Expr, int) operator overload, cast<T>(e) calls cast(type, e) as the
// template does, and so on.
//
// Usage: interp BATCH [FIRST_ENTRY [FIRST_VARIANT]]; prints what the generated
// programs print ("B", "P ... U|S ..." and "DONE" lines).
#include "Halide.h"

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using namespace Halide;
using namespace Halide::ConciseCasts;

namespace {

// ---------------------------------------------------------------------------
// Inputs and output, as in the generated programs.

constexpr int IN_MIN = -192, IN_SIZE = 448; // as gen_pipelines.py

uint64_t mix64(uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

template <typename T> T fill_value(int id, int x, int y) {
    const uint64_t salt =
        sizeof(T) * 131 + (std::is_signed<T>::value ? 7 : 0) + (std::is_floating_point<T>::value ? 1000 : 0);
    uint64_t h = mix64((uint64_t)id * 0x1000193ULL + salt * 0x100000001b3ULL +
                       (uint64_t)(uint32_t)(x + 4096) * 65599ULL + (uint64_t)(uint32_t)(y + 4096) * 0x9e3779b1ULL);
    if constexpr (std::is_floating_point<T>::value) {
        if (id == 0) {
            switch (h % 16) {
            case 0: return T(0);
            case 1: return -T(0);
            case 2: return T(1);
            case 3: return T(-1);
            case 4: return T(128);
            case 5: return T(-128);
            default: return T((double)((int64_t)((h >> 8) % 2049) - 1024) / 8.0);
            }
        }
        return T((double)(h >> 11) / 9007199254740992.0 * 2000.0 - 1000.0);
    } else {
        using U = typename std::make_unsigned<T>::type;
        if (id == 1) {
            if (std::is_signed<T>::value)
                return (T)((int64_t)((h >> 8) % 33) - 16);
            return (T)((h >> 8) % 17);
        }
        if (h % 8 == 0) {
            const T mn = std::numeric_limits<T>::min(), mx = std::numeric_limits<T>::max();
            const T ext[] = {mn,
                             mx,
                             (T)(mn + 1),
                             (T)(mx - 1),
                             (T)0,
                             (T)1,
                             (T)(std::is_signed<T>::value ? -1 : 2),
                             (T)(mx / 2),
                             (T)(mx / 2 + 1)};
            return ext[(h >> 8) % 9];
        }
        U u = (U)(h >> 5);
        T v;
        std::memcpy(&v, &u, sizeof(T));
        return v;
    }
}

template <typename T> Buffer<T> make_input(int id) {
    Buffer<T> b(IN_SIZE, IN_SIZE);
    for (int y = 0; y < IN_SIZE; y++) {
        for (int x = 0; x < IN_SIZE; x++) {
            b(x, y) = fill_value<T>(id, x + IN_MIN, y + IN_MIN);
        }
    }
    return b;
}

template <typename T> void append_value(std::string &s, T v) {
    char buf[64];
    if constexpr (std::is_same<T, bool>::value) {
        std::snprintf(buf, sizeof(buf), "%d", v ? 1 : 0);
    } else if constexpr (std::is_floating_point<T>::value) {
        if (std::isnan(v)) {
            std::snprintf(buf, sizeof(buf), "nan");
        } else if (std::isinf(v)) {
            std::snprintf(buf, sizeof(buf), v > 0 ? "inf" : "-inf");
        } else {
            std::snprintf(buf, sizeof(buf), sizeof(T) == 4 ? "%.9g" : "%.17g", (double)v);
        }
    } else if constexpr (std::is_signed<T>::value) {
        std::snprintf(buf, sizeof(buf), "%lld", (long long)v);
    } else {
        std::snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
    }
    s += ' ';
    s += buf;
}

std::string g_id;
bool g_sched = false;

template <typename T> void emit(Buffer<T> out, int w, int h, int dims) {
    std::string s = "P " + g_id + (g_sched ? " S" : " U");
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            append_value<T>(s, dims == 1 ? out(x) : out(x, y));
        }
    }
    std::puts(s.c_str());
    std::fflush(stdout);
}

void emit_error(const std::string &what) {
    std::string m(what);
    for (char &c : m) {
        if (c == '\n' || c == '\r')
            c = ' ';
    }
    if (m.size() > 400)
        m = m.substr(0, 400) + "...";
    std::printf("P %s %s ERR %s\n", g_id.c_str(), g_sched ? "S" : "U", m.c_str());
    std::fflush(stdout);
}

// A mistake of this program (or of the generator), never of a Halide.
struct ParseError : std::runtime_error {
    explicit ParseError(const std::string &m) : std::runtime_error("interp parse error: " + m) {}
};

std::map<std::string, Buffer<>> g_inputs;

Buffer<> input(const std::string &name) {
    auto it = g_inputs.find(name);
    if (it != g_inputs.end())
        return it->second;
    // in_<type>_<id>
    size_t a = name.find('_'), b = name.rfind('_');
    if (a == std::string::npos || a == b)
        throw ParseError("bad input name " + name);
    std::string t = name.substr(a + 1, b - a - 1);
    int id = std::atoi(name.c_str() + b + 1);
    Buffer<> buf;
    if (t == "u8")
        buf = make_input<uint8_t>(id);
    else if (t == "i8")
        buf = make_input<int8_t>(id);
    else if (t == "u16")
        buf = make_input<uint16_t>(id);
    else if (t == "i16")
        buf = make_input<int16_t>(id);
    else if (t == "u32")
        buf = make_input<uint32_t>(id);
    else if (t == "i32")
        buf = make_input<int32_t>(id);
    else if (t == "u64")
        buf = make_input<uint64_t>(id);
    else if (t == "i64")
        buf = make_input<int64_t>(id);
    else if (t == "f32")
        buf = make_input<float>(id);
    else if (t == "f64")
        buf = make_input<double>(id);
    else
        throw ParseError("bad input type " + name);
    g_inputs[name] = buf;
    return buf;
}

// ---------------------------------------------------------------------------
// Tokens

struct Tok {
    enum Kind { Ident, Num, Punct, Str, End } kind;
    std::string text;
};

std::vector<Tok> tokenize(const std::string &s) {
    std::vector<Tok> out;
    size_t i = 0;
    while (i < s.size()) {
        char c = s[i];
        if (std::isspace((unsigned char)c)) {
            i++;
        } else if (std::isalpha((unsigned char)c) || c == '_') {
            size_t j = i;
            while (j < s.size() && (std::isalnum((unsigned char)s[j]) || s[j] == '_' ||
                                    (s[j] == ':' && j + 1 < s.size() && s[j + 1] == ':') ||
                                    (s[j] == ':' && j > 0 && s[j - 1] == ':'))) {
                j++;
            }
            out.push_back({Tok::Ident, s.substr(i, j - i)});
            i = j;
        } else if (c == '"') {
            size_t j = s.find('"', i + 1);
            if (j == std::string::npos)
                j = s.size();
            out.push_back({Tok::Str, s.substr(i + 1, j - i - 1)});
            i = j + 1;
        } else if (std::isdigit((unsigned char)c) ||
                   (c == '.' && i + 1 < s.size() && std::isdigit((unsigned char)s[i + 1]))) {
            size_t j = i;
            bool hex = s.compare(i, 2, "0x") == 0 || s.compare(i, 2, "0X") == 0;
            while (j < s.size()) {
                char d = s[j];
                if (std::isalnum((unsigned char)d) || d == '.') {
                    j++;
                } else if ((d == '+' || d == '-') && !hex && (s[j - 1] == 'e' || s[j - 1] == 'E')) {
                    j++;
                } else {
                    break;
                }
            }
            out.push_back({Tok::Num, s.substr(i, j - i)});
            i = j;
        } else {
            static const char *two[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/="};
            bool done = false;
            for (const char *t : two) {
                if (s.compare(i, 2, t) == 0) {
                    out.push_back({Tok::Punct, t});
                    i += 2;
                    done = true;
                    break;
                }
            }
            if (!done) {
                out.push_back({Tok::Punct, std::string(1, c)});
                i++;
            }
        }
    }
    out.push_back({Tok::End, ""});
    return out;
}

// ---------------------------------------------------------------------------
// Values of the parsed subset

struct Val {
    enum Kind { E, I, T, L, R } kind = E; // R: an RDom (as sum(r, e) takes it)
    Expr e;
    int64_t i = 0;
    Type type;
    std::vector<Expr> list;
    RDom rdom;
    static Val expr(Expr x) {
        Val v;
        v.kind = E;
        v.e = std::move(x);
        return v;
    }
    static Val integer(int64_t x) {
        Val v;
        v.kind = I;
        v.i = x;
        return v;
    }
};

Type type_named(const std::string &n) {
    if (n == "uint8_t")
        return UInt(8);
    if (n == "int8_t")
        return Int(8);
    if (n == "uint16_t")
        return UInt(16);
    if (n == "int16_t")
        return Int(16);
    if (n == "uint32_t")
        return UInt(32);
    if (n == "int32_t")
        return Int(32);
    if (n == "uint64_t")
        return UInt(64);
    if (n == "int64_t")
        return Int(64);
    if (n == "float")
        return Float(32);
    if (n == "double")
        return Float(64);
    if (n == "bool")
        return Bool();
    throw ParseError("unknown type " + n);
}

struct Context {
    std::map<std::string, Func> funcs;
    std::map<std::string, Var> vars;
    std::map<std::string, RDom> rdoms;
    std::map<std::string, RVar> rvars;
    // r0.x, r0.y, ... of a declared RDom.
    RVar rdom_member(const std::string &rdom, const std::string &m) {
        auto it = rdoms.find(rdom);
        if (it == rdoms.end())
            throw ParseError("unknown RDom " + rdom);
        if (m == "x")
            return it->second.x;
        if (m == "y")
            return it->second.y;
        if (m == "z")
            return it->second.z;
        if (m == "w")
            return it->second.w;
        throw ParseError("unknown RDom member " + m);
    }
    Var var(const std::string &n) {
        auto it = vars.find(n);
        if (it != vars.end())
            return it->second;
        Var v(n);
        vars.emplace(n, v);
        return v;
    }
};

class Parser {
public:
    Parser(const std::string &s, Context &ctx) : toks_(tokenize(s)), ctx_(ctx) {}

    const Tok &peek(int k = 0) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
    bool is(const char *p, int k = 0) const { return peek(k).kind == Tok::Punct && peek(k).text == p; }
    Tok next() { return toks_[std::min(pos_++, toks_.size() - 1)]; }
    void expect(const char *p) {
        Tok t = next();
        if (t.kind != Tok::Punct || t.text != p)
            throw ParseError(std::string("expected '") + p + "', got '" + t.text + "'");
    }
    bool at_end() const { return peek().kind == Tok::End; }

    Expr expr() {
        Val v = value();
        return as_expr(v);
    }

    static Expr as_expr(const Val &v) {
        if (v.kind == Val::E)
            return v.e;
        if (v.kind == Val::I)
            return Expr((int)v.i);
        throw ParseError("expected an expression");
    }

    // operand (op operand)*, left to right (the generator parenthesizes every
    // binary operation, so there is never more than one kind of operator at a level).
    Val value() {
        Val a = unary();
        while (peek().kind == Tok::Punct && is_binop(peek().text)) {
            std::string op = next().text;
            Val b = unary();
            a = binop(op, a, b);
        }
        return a;
    }

    static bool is_binop(const std::string &s) {
        static const char *ops[] = {"+", "-", "*",  "/", "%",  "<<", ">>", "&",  "|",
                                    "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"};
        for (const char *o : ops) {
            if (s == o)
                return true;
        }
        return false;
    }

    Val unary() {
        if (is("-")) {
            next();
            Val v = unary();
            if (v.kind == Val::I)
                return Val::integer(-v.i);
            return Val::expr(-as_expr(v));
        }
        if (is("!")) {
            next();
            return Val::expr(!as_expr(unary()));
        }
        if (is("~")) {
            next();
            return Val::expr(~as_expr(unary()));
        }
        return primary();
    }

    Val primary() {
        Tok t = next();
        if (t.kind == Tok::Punct && t.text == "(") {
            Val v = value();
            expect(")");
            return v;
        }
        if (t.kind == Tok::Punct && t.text == "{") {
            Val v;
            v.kind = Val::L;
            while (!is("}")) {
                v.list.push_back(expr());
                if (is(","))
                    next();
            }
            expect("}");
            return v;
        }
        if (t.kind == Tok::Num) {
            return Val::integer(std::stoll(t.text, nullptr, 0));
        }
        if (t.kind != Tok::Ident)
            throw ParseError("unexpected '" + t.text + "'");
        const std::string &n = t.text;
        if (n == "Expr")
            return literal();
        if ((n == "cast" || n == "saturating_cast" || n == "reinterpret") && is("<")) {
            next();
            Tok tn = next();
            expect(">");
            Type ty = type_named(tn.text);
            std::vector<Val> a = args();
            if (a.size() != 1)
                throw ParseError(n + "<T> takes one argument");
            Expr e = as_expr(a[0]);
            if (n == "cast")
                return Val::expr(cast(ty, e));
            if (n == "saturating_cast")
                return Val::expr(saturating_cast(ty, e));
            return Val::expr(reinterpret(ty, e));
        }
        if (n == "UInt" || n == "Int" || n == "Float" || n == "Bool") {
            std::vector<Val> a = args();
            Val v;
            v.kind = Val::T;
            if (n == "Bool")
                v.type = Bool();
            else if (a.size() != 1 || a[0].kind != Val::I)
                throw ParseError("bad type");
            else if (n == "UInt")
                v.type = UInt((int)a[0].i);
            else if (n == "Int")
                v.type = Int((int)a[0].i);
            else
                v.type = Float((int)a[0].i);
            return v;
        }
        if (ctx_.rdoms.count(n)) {
            if (is(".")) {
                next();
                return Val::expr(ctx_.rdom_member(n, next().text));
            }
            Val v;
            v.kind = Val::R;
            v.rdom = ctx_.rdoms.at(n);
            return v;
        }
        if (ctx_.rvars.count(n))
            return Val::expr(ctx_.rvars.at(n));
        if (ctx_.funcs.count(n) && is(".")) {
            // f.output_buffer().width() / .height(), as specialize conditions.
            next();
            if (next().text != "output_buffer")
                throw ParseError("unknown Func member after " + n);
            expect("(");
            expect(")");
            expect(".");
            std::string m = next().text;
            expect("(");
            expect(")");
            OutputImageParam o = ctx_.funcs.at(n).output_buffer();
            if (m == "width")
                return Val::expr(o.width());
            if (m == "height")
                return Val::expr(o.height());
            throw ParseError("unknown output_buffer() member " + m);
        }
        if (is("(")) {
            std::vector<Val> a = args();
            if (n == "argmax" || n == "argmin") {
                // One element of the Tuple: argmax(...)[i].
                Tuple tu = reduction_tuple(n, a);
                expect("[");
                Tok i = next();
                expect("]");
                if (i.kind != Tok::Num)
                    throw ParseError("argmax(...)[i] needs a number");
                return Val::expr(tu[std::stoi(i.text)]);
            }
            return call(n, a);
        }
        return Val::expr(ctx_.var(n));
    }

    std::vector<Val> args() {
        expect("(");
        std::vector<Val> out;
        while (!is(")")) {
            out.push_back(value());
            if (is(","))
                next();
            else if (!is(")"))
                throw ParseError("expected ',' or ')' in arguments, got '" + peek().text + "'");
        }
        expect(")");
        return out;
    }

    // Expr(<literal>) and Expr((T)<integer expression>).
    Val literal() {
        expect("(");
        Type ty;
        bool typed = false;
        if (is("(") && peek(1).kind == Tok::Ident && is(")", 2)) {
            next();
            ty = type_named(next().text);
            next();
            typed = true;
        }
        // Expr(2), Expr(-3), Expr(2.5f), Expr(-0.25), Expr(1e+06f): the literal's own C++ type.
        int neg = (!typed && is("-") && peek(1).kind == Tok::Num && is(")", 2)) ? 1 : 0;
        if (!typed && peek(neg).kind == Tok::Num && is(")", neg + 1)) {
            if (neg)
                next();
            std::string s = next().text;
            expect(")");
            bool is_float = s.find('.') != std::string::npos || s.find('e') != std::string::npos ||
                            s.find('E') != std::string::npos;
            if (!is_float)
                return Val::expr(Expr((int)(neg ? -std::stoll(s) : std::stoll(s))));
            if (s.back() == 'f') {
                float f = std::strtof(s.c_str(), nullptr);
                return Val::expr(Expr(neg ? -f : f));
            }
            double d = std::strtod(s.c_str(), nullptr);
            return Val::expr(Expr(neg ? -d : d));
        }
        if (!typed)
            throw ParseError("untyped Expr literal");
        __int128 v = int_expr();
        expect(")");
        if (ty == UInt(8))
            return Val::expr(Expr((uint8_t)v));
        if (ty == Int(8))
            return Val::expr(Expr((int8_t)v));
        if (ty == UInt(16))
            return Val::expr(Expr((uint16_t)v));
        if (ty == Int(16))
            return Val::expr(Expr((int16_t)v));
        if (ty == UInt(32))
            return Val::expr(Expr((uint32_t)v));
        if (ty == Int(32))
            return Val::expr(Expr((int32_t)v));
        if (ty == UInt(64))
            return Val::expr(Expr((uint64_t)v));
        if (ty == Int(64))
            return Val::expr(Expr((int64_t)v));
        throw ParseError("bad literal type");
    }

    // An integer constant expression: numbers, unary minus, binary + and -, parentheses.
    __int128 int_expr() {
        __int128 v = int_term();
        while (is("+") || is("-")) {
            bool plus = next().text == "+";
            __int128 w = int_term();
            v = plus ? v + w : v - w;
        }
        return v;
    }
    __int128 int_term() {
        if (is("-")) {
            next();
            return -int_term();
        }
        if (is("(")) {
            next();
            __int128 v = int_expr();
            expect(")");
            return v;
        }
        Tok t = next();
        if (t.kind != Tok::Num)
            throw ParseError("expected a number, got '" + t.text + "'");
        return (__int128)std::stoull(t.text, nullptr, 0);
    }

    static Val binop(const std::string &op, const Val &a, const Val &b) {
        if (a.kind == Val::I && b.kind == Val::I) {
            if (op == "+")
                return Val::integer(a.i + b.i);
            if (op == "-")
                return Val::integer(a.i - b.i);
            throw ParseError("integer " + op);
        }
        if (a.kind == Val::E && b.kind == Val::I)
            return Val::expr(apply_op(op, a.e, (int)b.i));
        if (a.kind == Val::I && b.kind == Val::E)
            return Val::expr(apply_op(op, (int)a.i, b.e));
        return Val::expr(apply_op(op, as_expr(a), as_expr(b)));
    }

    // One binary operator of the C++ API, on Expr/Expr, Expr/int or int/Expr
    // operands (the overloads a generated statement calls). Shifts need an
    // Expr on the left and && || two Exprs, as in Halide.h.
    template <typename A, typename B> static Expr apply_op(const std::string &op, const A &a, const B &b) {
        constexpr bool expr_left = std::is_same<A, Expr>::value, both_expr = expr_left && std::is_same<B, Expr>::value;
        if (op == "+")
            return a + b;
        if (op == "-")
            return a - b;
        if (op == "*")
            return a * b;
        if (op == "/")
            return a / b;
        if (op == "%")
            return a % b;
        if (op == "&")
            return a & b;
        if (op == "|")
            return a | b;
        if (op == "^")
            return a ^ b;
        if (op == "<")
            return a < b;
        if (op == "<=")
            return a <= b;
        if (op == ">")
            return a > b;
        if (op == ">=")
            return a >= b;
        if (op == "==")
            return a == b;
        if (op == "!=")
            return a != b;
        if constexpr (expr_left) {
            if (op == "<<")
                return a << b;
            if (op == ">>")
                return a >> b;
        }
        if constexpr (both_expr) {
            if (op == "&&")
                return a && b;
            if (op == "||")
                return a || b;
        }
        throw ParseError("operator " + op);
    }

    Tuple reduction_tuple(const std::string &n, const std::vector<Val> &a) {
        const bool mx = n == "argmax";
        if (a.size() == 1)
            return mx ? argmax(as_expr(a[0]), n) : argmin(as_expr(a[0]), n);
        if (a.size() != 2 || a[0].kind != Val::R)
            throw ParseError(n + ": expected (e) or (r, e)");
        return mx ? argmax(a[0].rdom, as_expr(a[1]), n) : argmin(a[0].rdom, as_expr(a[1]), n);
    }

    Val call(const std::string &n, const std::vector<Val> &a) {
        auto E = [&](size_t i) {
            if (i >= a.size())
                throw ParseError(n + ": missing argument");
            return as_expr(a[i]);
        };
        auto want = [&](size_t k) {
            if (a.size() != k)
                throw ParseError(n + ": wrong number of arguments");
        };
        auto it = ctx_.funcs.find(n);
        if (it != ctx_.funcs.end()) {
            const Func &f = it->second;
            if (a.size() == 1)
                return Val::expr(f(E(0)));
            want(2);
            return Val::expr(f(E(0), E(1)));
        }
        if (n.compare(0, 3, "in_") == 0) {
            Buffer<> b = input(n);
            want(2);
            return Val::expr(b(E(0), E(1)));
        }
        if (n == "sum" || n == "product" || n == "maximum" || n == "minimum") {
            using R1 = Expr (*)(Expr, const std::string &);
            using R2 = Expr (*)(const RDom &, Expr, const std::string &);
            static const std::map<std::string, std::pair<R1, R2>> fns = {
                {"sum",
                 {[](Expr e, const std::string &s) { return sum(e, s); },
                  [](const RDom &r, Expr e, const std::string &s) { return sum(r, e, s); }}},
                {"product",
                 {[](Expr e, const std::string &s) { return product(e, s); },
                  [](const RDom &r, Expr e, const std::string &s) { return product(r, e, s); }}},
                {"maximum",
                 {[](Expr e, const std::string &s) { return maximum(e, s); },
                  [](const RDom &r, Expr e, const std::string &s) { return maximum(r, e, s); }}},
                {"minimum",
                 {[](Expr e, const std::string &s) { return minimum(e, s); },
                  [](const RDom &r, Expr e, const std::string &s) { return minimum(r, e, s); }}},
            };
            const auto &f = fns.at(n);
            if (a.size() == 1)
                return Val::expr(f.first(E(0), n));
            want(2);
            if (a[0].kind != Val::R)
                throw ParseError(n + "(r, e) needs an RDom");
            return Val::expr(f.second(a[0].rdom, E(1), n));
        }
        if (n == "min")
            return want(2), Val::expr(min(E(0), E(1)));
        if (n == "max")
            return want(2), Val::expr(max(E(0), E(1)));
        if (n == "clamp")
            return want(3), Val::expr(clamp(E(0), E(1), E(2)));
        if (n == "likely")
            return want(1), Val::expr(likely(E(0)));
        if (n == "likely_if_innermost")
            return want(1), Val::expr(likely_if_innermost(E(0)));
        if (n == "select") {
            if (a.size() == 3)
                return Val::expr(select(E(0), E(1), E(2)));
            want(5);
            return Val::expr(select(E(0), E(1), E(2), E(3), E(4)));
        }
        if (n == "mux") {
            want(2);
            if (a[1].kind != Val::L)
                throw ParseError("mux needs a list");
            return Val::expr(mux(E(0), a[1].list));
        }
        if (n == "abs")
            return want(1), Val::expr(abs(E(0)));
        if (n == "absd")
            return want(2), Val::expr(absd(E(0), E(1)));
        if (n == "lerp")
            return want(3), Val::expr(lerp(E(0), E(1), E(2)));
        if (n == "pow")
            return want(2), Val::expr(pow(E(0), E(1)));
        if (n == "hypot")
            return want(2), Val::expr(hypot(E(0), E(1)));
        if (n == "cast" || n == "saturating_cast") {
            want(2);
            if (a[0].kind != Val::T)
                throw ParseError(n + " needs a Type");
            return Val::expr(n == "cast" ? cast(a[0].type, E(1)) : saturating_cast(a[0].type, E(1)));
        }
        if (a.size() == 1) {
            using Fn = Expr (*)(const Expr &);
            static const std::map<std::string, Fn> unary = {
                {"sqrt", [](const Expr &e) { return sqrt(e); }},
                {"exp", [](const Expr &e) { return exp(e); }},
                {"log", [](const Expr &e) { return log(e); }},
                {"sin", [](const Expr &e) { return sin(e); }},
                {"cos", [](const Expr &e) { return cos(e); }},
                {"tan", [](const Expr &e) { return tan(e); }},
                {"atan", [](const Expr &e) { return atan(e); }},
                {"tanh", [](const Expr &e) { return tanh(e); }},
                {"asin", [](const Expr &e) { return asin(e); }},
                {"acos", [](const Expr &e) { return acos(e); }},
                {"sinh", [](const Expr &e) { return sinh(e); }},
                {"cosh", [](const Expr &e) { return cosh(e); }},
                {"floor", [](const Expr &e) { return floor(e); }},
                {"ceil", [](const Expr &e) { return ceil(e); }},
                {"round", [](const Expr &e) { return round(e); }},
                {"trunc", [](const Expr &e) { return trunc(e); }},
                {"fract", [](const Expr &e) { return fract(e); }},
                {"u8", [](const Expr &e) { return u8(e); }},
                {"i8", [](const Expr &e) { return i8(e); }},
                {"u16", [](const Expr &e) { return u16(e); }},
                {"i16", [](const Expr &e) { return i16(e); }},
                {"u32", [](const Expr &e) { return u32(e); }},
                {"i32", [](const Expr &e) { return i32(e); }},
                {"u64", [](const Expr &e) { return u64(e); }},
                {"i64", [](const Expr &e) { return i64(e); }},
                {"f32", [](const Expr &e) { return f32(e); }},
                {"f64", [](const Expr &e) { return f64(e); }},
                {"u8_sat", [](const Expr &e) { return u8_sat(e); }},
                {"i8_sat", [](const Expr &e) { return i8_sat(e); }},
                {"u16_sat", [](const Expr &e) { return u16_sat(e); }},
                {"i16_sat", [](const Expr &e) { return i16_sat(e); }},
                {"u32_sat", [](const Expr &e) { return u32_sat(e); }},
                {"i32_sat", [](const Expr &e) { return i32_sat(e); }},
                {"u64_sat", [](const Expr &e) { return u64_sat(e); }},
                {"i64_sat", [](const Expr &e) { return i64_sat(e); }},
            };
            auto it = unary.find(n);
            if (it != unary.end())
                return Val::expr(it->second(E(0)));
        }
        throw ParseError("unknown function " + n);
    }

private:
    std::vector<Tok> toks_;
    size_t pos_ = 0;
    Context &ctx_;
};

LoopAlignStrategy align_named(const std::string &s) {
    if (s == "LoopAlignStrategy::AlignStart")
        return LoopAlignStrategy::AlignStart;
    if (s == "LoopAlignStrategy::AlignEnd")
        return LoopAlignStrategy::AlignEnd;
    if (s == "LoopAlignStrategy::NoAlign")
        return LoopAlignStrategy::NoAlign;
    if (s == "LoopAlignStrategy::Auto")
        return LoopAlignStrategy::Auto;
    throw ParseError("unknown loop alignment " + s);
}

TailStrategy tail_named(const std::string &s) {
    if (s == "TailStrategy::Auto")
        return TailStrategy::Auto;
    if (s == "TailStrategy::GuardWithIf")
        return TailStrategy::GuardWithIf;
    if (s == "TailStrategy::ShiftInwards")
        return TailStrategy::ShiftInwards;
    if (s == "TailStrategy::RoundUp")
        return TailStrategy::RoundUp;
    if (s == "TailStrategy::Predicate")
        return TailStrategy::Predicate;
    if (s == "TailStrategy::ShiftInwardsAndBlend")
        return TailStrategy::ShiftInwardsAndBlend;
    if (s == "TailStrategy::PredicateLoads")
        return TailStrategy::PredicateLoads;
    if (s == "TailStrategy::PredicateStores")
        return TailStrategy::PredicateStores;
    throw ParseError("unknown tail strategy " + s);
}

// A schedule call's argument: a Var, RVar or Func name, r0.x, a number or a tail strategy.
struct Arg {
    Tok tok;
    std::string member; // "x" for r0.x
};

// s.reorder(v[0], v[1], ...), as the generated C++ calls it.
template <typename S, typename V> void reorder_n(S &s, const std::vector<V> &v) {
    switch (v.size()) {
    case 2: s.reorder(v[0], v[1]); break;
    case 3: s.reorder(v[0], v[1], v[2]); break;
    case 4: s.reorder(v[0], v[1], v[2], v[3]); break;
    case 5: s.reorder(v[0], v[1], v[2], v[3], v[4]); break;
    case 6: s.reorder(v[0], v[1], v[2], v[3], v[4], v[5]); break;
    case 7: s.reorder(v[0], v[1], v[2], v[3], v[4], v[5], v[6]); break;
    default: throw ParseError("reorder of " + std::to_string(v.size()) + " loops");
    }
}

// Func (pure definition) and Stage (update definitions) schedules, as the
// generated C++ calls them.
template <typename S, typename V>
void schedule_call(S &s, const std::string &m, const std::vector<V> &v, const std::vector<Arg> &a,
                   const std::function<int(size_t)> &N, const std::function<TailStrategy(size_t)> &TS,
                   const std::string &line) {
    if (m == "split")
        s.split(v.at(0), v.at(1), v.at(2), N(3), TS(4));
    else if (m == "fuse")
        s.fuse(v.at(0), v.at(1), v.at(2));
    else if (m == "reorder")
        reorder_n(s, v);
    else if (m == "tile" && a.size() == 9)
        s.tile(v.at(0), v.at(1), v.at(2), v.at(3), v.at(4), v.at(5), N(6), N(7), TS(8));
    else if (m == "tile" && a.size() == 7)
        s.tile(v.at(0), v.at(1), v.at(2), v.at(3), N(4), N(5), TS(6));
    else if (m == "vectorize" && a.size() == 1)
        s.vectorize(v.at(0));
    else if (m == "vectorize" && a.size() == 2)
        s.vectorize(v.at(0), N(1));
    else if (m == "vectorize" && a.size() == 3)
        s.vectorize(v.at(0), N(1), TS(2));
    else if (m == "unroll" && a.size() == 1)
        s.unroll(v.at(0));
    else if (m == "unroll" && a.size() == 3)
        s.unroll(v.at(0), N(1), TS(2));
    else if (m == "parallel" && a.size() == 1)
        s.parallel(v.at(0));
    else if (m == "parallel" && a.size() == 3)
        s.parallel(v.at(0), N(1), TS(2));
    else
        throw ParseError("unknown schedule call: " + line);
}

MemoryType memory_type_named(const std::string &s) {
    if (s == "MemoryType::Stack")
        return MemoryType::Stack;
    if (s == "MemoryType::Heap")
        return MemoryType::Heap;
    throw ParseError("unknown memory type " + s);
}

// "Func bc = BoundaryConditions::<kind>(in_T_N, [value, ]{{min, extent}, {min, extent}});"
// (after the "Func" token).
void boundary_condition(Parser &p, Context &ctx, const std::string &line) {
    std::string name = p.next().text;
    p.expect("=");
    std::string kind = p.next().text;
    p.expect("(");
    Buffer<> src = input(p.next().text);
    p.expect(",");
    Expr value;
    if (!p.is("{")) {
        value = p.expr();
        p.expect(",");
    }
    Region region;
    p.expect("{");
    while (!p.is("}")) {
        p.expect("{");
        Expr mn = p.expr();
        p.expect(",");
        Expr ext = p.expr();
        p.expect("}");
        region.push_back(Range{mn, ext});
        if (p.is(","))
            p.next();
    }
    p.expect("}");
    p.expect(")");
    p.expect(";");
    Func f;
    if (kind == "BoundaryConditions::repeat_edge")
        f = BoundaryConditions::repeat_edge(src, region);
    else if (kind == "BoundaryConditions::constant_exterior" && value.defined())
        f = BoundaryConditions::constant_exterior(src, value, region);
    else if (kind == "BoundaryConditions::repeat_image")
        f = BoundaryConditions::repeat_image(src, region);
    else if (kind == "BoundaryConditions::mirror_image")
        f = BoundaryConditions::mirror_image(src, region);
    else if (kind == "BoundaryConditions::mirror_interior")
        f = BoundaryConditions::mirror_interior(src, region);
    else
        throw ParseError("unknown boundary condition in: " + line);
    ctx.funcs.emplace(name, f);
}

// "RDom r0(0, 3, ...);", "r0.where(e);", "RVar v("v");", "Func bc = BoundaryConditions::...;",
// "name(args) op expr;" or "name[.update(i)|.in(g)|.specialize(cond)].method(args);"
void statement(const std::string &line, Context &ctx) {
    Parser p(line, ctx);
    Tok name = p.next();
    if (name.kind != Tok::Ident)
        throw ParseError("statement: " + line);
    if (name.text == "RDom") {
        std::string rn = p.next().text;
        std::vector<Val> a = p.args();
        std::vector<Expr> e;
        for (const Val &v : a)
            e.push_back(Parser::as_expr(v));
        RDom r;
        if (e.size() == 2)
            r = RDom(e[0], e[1]);
        else if (e.size() == 4)
            r = RDom(e[0], e[1], e[2], e[3]);
        else if (e.size() == 6)
            r = RDom(e[0], e[1], e[2], e[3], e[4], e[5]);
        else
            throw ParseError("RDom of " + std::to_string(e.size()) + " bounds");
        ctx.rdoms[rn] = r;
        return;
    }
    if (name.text == "RVar") {
        std::string rn = p.next().text;
        p.expect("(");
        Tok str = p.next();
        if (str.kind != Tok::Str)
            throw ParseError("RVar needs a name: " + line);
        p.expect(")");
        ctx.rvars.emplace(rn, RVar(str.text));
        return;
    }
    if (name.text == "Func") {
        boundary_condition(p, ctx, line);
        return;
    }
    if (ctx.rdoms.count(name.text)) {
        p.expect(".");
        if (p.next().text != "where")
            throw ParseError("unknown RDom call: " + line);
        p.expect("(");
        Expr pred = p.expr();
        p.expect(")");
        p.expect(";");
        ctx.rdoms[name.text].where(pred);
        return;
    }
    auto fit = ctx.funcs.find(name.text);
    if (fit == ctx.funcs.end())
        throw ParseError("unknown Func in: " + line);
    Func f = fit->second;
    if (p.is("(")) {
        // A definition: pure (every argument a Var) or an update.
        p.next();
        std::vector<Var> vs;
        std::vector<Expr> es;
        bool all_vars = true;
        while (!p.is(")")) {
            const Tok &t = p.peek();
            if (t.kind == Tok::Ident && (p.is(",", 1) || p.is(")", 1)) && !ctx.rdoms.count(t.text) &&
                !ctx.rvars.count(t.text)) {
                vs.push_back(ctx.var(p.next().text));
                es.push_back(vs.back());
            } else {
                all_vars = false;
                es.push_back(p.expr());
            }
            if (p.is(","))
                p.next();
        }
        p.expect(")");
        std::string op = p.next().text;
        Expr e = p.expr();
        p.expect(";");
        FuncRef ref = all_vars ? f(vs) : f(es);
        if (op == "=")
            ref = e;
        else if (op == "+=")
            ref += e;
        else if (op == "-=")
            ref -= e;
        else if (op == "*=")
            ref *= e;
        else if (op == "/=")
            ref /= e;
        else
            throw ParseError("unknown definition operator " + op);
        return;
    }
    p.expect(".");
    std::string m = p.next().text;
    std::optional<Stage> stage;
    if (m == "update") {
        p.expect("(");
        stage = f.update((int)std::stol(p.next().text));
        p.expect(")");
        p.expect(".");
        m = p.next().text;
    } else if (m == "in") {
        // The wrapper of f in a consumer: the rest of the line schedules it.
        p.expect("(");
        Tok consumer = p.next();
        p.expect(")");
        auto cit = ctx.funcs.find(consumer.text);
        if (cit == ctx.funcs.end())
            throw ParseError("in() of an unknown Func: " + line);
        f = f.in(cit->second);
        p.expect(".");
        m = p.next().text;
    } else if (m == "specialize") {
        p.expect("(");
        Expr cond = p.expr();
        p.expect(")");
        stage = f.specialize(cond);
        if (p.is(";"))
            return;
        p.expect(".");
        m = p.next().text;
    }
    // Arguments: Var, RVar or Func names, r0.x, integers, tail strategies.
    std::vector<Arg> a;
    p.expect("(");
    while (!p.is(")")) {
        Arg arg{p.next(), ""};
        if (arg.tok.kind == Tok::Ident && p.is(".")) {
            p.next();
            arg.member = p.next().text;
        }
        a.push_back(arg);
        if (p.is(","))
            p.next();
    }
    p.expect(")");
    auto V = [&](size_t i) {
        if (i >= a.size() || a[i].tok.kind != Tok::Ident || !a[i].member.empty())
            throw ParseError("expected a Var in: " + line);
        return ctx.var(a[i].tok.text);
    };
    auto VR = [&](size_t i) -> VarOrRVar {
        if (i >= a.size() || a[i].tok.kind != Tok::Ident)
            throw ParseError("expected a Var or RVar in: " + line);
        if (!a[i].member.empty())
            return ctx.rdom_member(a[i].tok.text, a[i].member);
        auto it = ctx.rvars.find(a[i].tok.text);
        if (it != ctx.rvars.end())
            return it->second;
        return ctx.var(a[i].tok.text);
    };
    std::function<int(size_t)> N = [&](size_t i) {
        if (i >= a.size() || a[i].tok.kind != Tok::Num)
            throw ParseError("expected a number in: " + line);
        return (int)std::stol(a[i].tok.text);
    };
    std::function<TailStrategy(size_t)> TS = [&](size_t i) { return tail_named(a.at(i).tok.text); };
    auto F = [&](size_t i) -> Func & {
        auto it = i < a.size() ? ctx.funcs.find(a[i].tok.text) : ctx.funcs.end();
        if (it == ctx.funcs.end())
            throw ParseError("expected a Func in: " + line);
        return it->second;
    };
    if (stage) {
        Stage &st = *stage;
        std::vector<VarOrRVar> v;
        for (size_t i = 0; i < a.size(); i++) {
            if (a[i].tok.kind == Tok::Ident && a[i].tok.text.compare(0, 14, "TailStrategy::") != 0)
                v.push_back(VR(i));
        }
        schedule_call(st, m, v, a, N, TS, line);
        return;
    }
    if (m == "compute_root")
        f.compute_root();
    else if (m == "store_root")
        f.store_root();
    else if (m == "compute_at")
        f.compute_at(F(0), V(1));
    else if (m == "store_at")
        f.store_at(F(0), V(1));
    else if (m == "compute_with" && a.size() == 3)
        f.compute_with(F(0), VR(1), align_named(a[2].tok.text));
    else if (m == "compute_with")
        f.compute_with(F(0), VR(1));
    else if (m == "store_in")
        f.store_in(memory_type_named(a.at(0).tok.text));
    else {
        std::vector<Var> v;
        for (size_t i = 0; i < a.size(); i++) {
            if (a[i].tok.kind == Tok::Ident && a[i].tok.text.compare(0, 14, "TailStrategy::") != 0)
                v.push_back(V(i));
        }
        schedule_call(f, m, v, a, N, TS, line);
    }
}

struct PipelineText {
    std::string id, out, type;
    int dims = 2, w = 1, h = 1;
    std::vector<std::string> funcs, defs, sched, unsched;
};

template <typename T> void realize_and_emit(Func f, const PipelineText &p) {
    std::vector<int> sizes = p.dims == 2 ? std::vector<int>{p.w, p.h} : std::vector<int>{p.w};
    Buffer<T> out = f.realize(sizes);
    emit<T>(out, p.w, p.h, p.dims);
}

void run(const PipelineText &p, bool sched) {
    Context ctx;
    ctx.var("x");
    ctx.var("y");
    for (const std::string &n : p.funcs)
        ctx.funcs.emplace(n, Func(n));
    for (const std::string &d : p.defs)
        statement(d, ctx);
    for (const std::string &s : sched ? p.sched : p.unsched)
        statement(s, ctx);
    Func out = ctx.funcs.at(p.out);
    const std::string &t = p.type;
    if (t == "u8")
        realize_and_emit<uint8_t>(out, p);
    else if (t == "i8")
        realize_and_emit<int8_t>(out, p);
    else if (t == "u16")
        realize_and_emit<uint16_t>(out, p);
    else if (t == "i16")
        realize_and_emit<int16_t>(out, p);
    else if (t == "u32")
        realize_and_emit<uint32_t>(out, p);
    else if (t == "i32")
        realize_and_emit<int32_t>(out, p);
    else if (t == "u64")
        realize_and_emit<uint64_t>(out, p);
    else if (t == "i64")
        realize_and_emit<int64_t>(out, p);
    else if (t == "f32")
        realize_and_emit<float>(out, p);
    else if (t == "f64")
        realize_and_emit<double>(out, p);
    else if (t == "bool")
        realize_and_emit<bool>(out, p);
    else
        throw ParseError("bad output type " + t);
}

std::vector<PipelineText> read_batch(const char *path) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "can't read %s\n", path);
        std::exit(2);
    }
    std::vector<PipelineText> out;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string kw;
        ls >> kw;
        std::string rest = line.size() > kw.size() ? line.substr(kw.size() + 1) : "";
        if (kw == "PIPELINE") {
            out.emplace_back();
            ls >> out.back().id >> out.back().dims >> out.back().w >> out.back().h >> out.back().out >> out.back().type;
        } else if (kw == "FUNCS") {
            std::string f;
            while (ls >> f)
                out.back().funcs.push_back(f);
        } else if (kw == "DEF") {
            out.back().defs.push_back(rest);
        } else if (kw == "SCHED") {
            out.back().sched.push_back(rest);
        } else if (kw == "UNSCHED") {
            out.back().unsched.push_back(rest);
        }
    }
    return out;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s BATCH [FIRST_ENTRY [FIRST_VARIANT]]\n", argv[0]);
        return 2;
    }
    std::vector<PipelineText> ps = read_batch(argv[1]);
    int from = argc > 2 ? std::atoi(argv[2]) : 0;
    int from_variant = argc > 3 ? std::atoi(argv[3]) : 0;
    for (int i = from; i < (int)ps.size(); i++) {
        for (int v = (i == from ? from_variant : 0); v < 2; v++) {
            g_id = ps[i].id;
            g_sched = v == 1;
            std::printf("B %d %d\n", i, v);
            std::fflush(stdout);
            auto t0 = std::chrono::steady_clock::now();
            try {
                run(ps[i], v == 1);
            } catch (const ParseError &e) {
                emit_error(std::string("HARNESS ") + e.what());
            } catch (const Halide::Error &e) {
                emit_error(e.what());
            } catch (const std::exception &e) {
                emit_error(e.what());
            }
            double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            std::printf("T %s %d %.1f\n", g_id.c_str(), v, ms);
        }
    }
    std::printf("DONE\n");
    return 0;
}
