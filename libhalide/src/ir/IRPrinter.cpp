// The readable text form of the IR.
#include "Halide/IRPrinter.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "Halide/Error.h"

namespace Halide {

std::ostream &operator<<(std::ostream &stream, const Expr &e) {
    Internal::IRPrinter p(stream);
    p.print(e);
    return stream;
}

std::ostream &operator<<(std::ostream &stream, const Type &t) {
    return stream << type_to_string(t);
}

std::ostream &operator<<(std::ostream &stream, MemoryType t) {
    switch (t) {
    case MemoryType::Auto: return stream << "Auto";
    case MemoryType::Heap: return stream << "Heap";
    case MemoryType::Stack: return stream << "Stack";
    case MemoryType::Register: return stream << "Register";
    case MemoryType::GPUShared: return stream << "GPUShared";
    case MemoryType::GPUTexture: return stream << "GPUTexture";
    case MemoryType::LockedCache: return stream << "LockedCache";
    case MemoryType::VTCM: return stream << "VTCM";
    case MemoryType::AMXTile: return stream << "AMXTile";
    }
    return stream;
}

namespace Internal {

namespace {

// The shortest decimal that reads back as `v` at the given precision, always
// with a '.' or an exponent so it reads as a float.
std::string float_to_string(double v, int bits) {
    char buf[64];
    for (int digits = 1; digits <= 17; digits++) {
        std::snprintf(buf, sizeof(buf), "%.*g", digits, v);
        double back = std::strtod(buf, nullptr);
        bool same = bits == 32 ? static_cast<float>(back) == static_cast<float>(v) : back == v;
        if (same) {
            break;
        }
    }
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) {
        s += ".0";
    }
    return s;
}

void print_escaped(std::ostream &stream, const std::string &s) {
    stream << '"';
    for (unsigned char c : s) {
        switch (c) {
        case '"': stream << "\\\""; break;
        case '\\': stream << "\\\\"; break;
        case '\n': stream << "\\n"; break;
        case '\t': stream << "\\t"; break;
        case '\r': stream << "\\r"; break;
        default:
            if (c < 0x20 || c >= 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof(buf), "\\x%02x", c);
                stream << buf;
            } else {
                stream << c;
            }
        }
    }
    stream << '"';
}

const char *for_type_prefix(ForType t) {
    switch (t) {
    case ForType::Serial: return "";
    case ForType::Parallel: return "parallel ";
    case ForType::Vectorized: return "vectorized ";
    case ForType::Unrolled: return "unrolled ";
    }
    return "";
}

} // namespace

std::ostream &operator<<(std::ostream &stream, const Stmt &s) {
    IRPrinter p(stream);
    p.print(s);
    return stream;
}

std::ostream &operator<<(std::ostream &stream, ForType t) {
    switch (t) {
    case ForType::Serial: return stream << "serial";
    case ForType::Parallel: return stream << "parallel";
    case ForType::Vectorized: return stream << "vectorized";
    case ForType::Unrolled: return stream << "unrolled";
    }
    return stream;
}

void IRPrinter::print(const Expr &e) {
    if (e.defined()) {
        include(e);
    } else {
        stream << "<undefined>";
    }
}

void IRPrinter::print(const Stmt &s) {
    if (s.defined()) {
        include(s);
    } else {
        do_indent();
        stream << "<undefined>\n";
    }
}

void IRPrinter::do_indent() {
    for (int i = 0; i < indent_level; i++) {
        stream << "  ";
    }
}

void IRPrinter::print_infix(const Expr &a, const char *op, const Expr &b) {
    stream << '(';
    print(a);
    stream << ' ' << op << ' ';
    print(b);
    stream << ')';
}

void IRPrinter::print_call(const char *name, const Expr &a, const Expr &b) {
    stream << name << '(';
    print(a);
    stream << ", ";
    print(b);
    stream << ')';
}

void IRPrinter::print_list(const std::vector<Expr> &es) {
    for (size_t i = 0; i < es.size(); i++) {
        if (i > 0) {
            stream << ", ";
        }
        print(es[i]);
    }
}

void IRPrinter::print_braced_body(const Stmt &body) {
    stream << "{\n";
    indent_level++;
    print(body);
    indent_level--;
    do_indent();
    stream << '}';
}

// Literals: int32 and float64 bare, float32 with an "f" suffix, bools as
// true/false, anything else with its type in front: (uint8)5, (int64)-3.
void IRPrinter::visit(const IntImm *op) {
    if (op->type != Int(32)) {
        stream << '(' << op->type << ')';
    }
    stream << op->value;
}

void IRPrinter::visit(const UIntImm *op) {
    if (op->type == Bool()) {
        stream << (op->value ? "true" : "false");
        return;
    }
    stream << '(' << op->type << ')' << op->value;
}

void IRPrinter::visit(const FloatImm *op) {
    const bool finite = std::isfinite(op->value);
    if (op->type == Float(64) && finite) {
        stream << float_to_string(op->value, 64);
    } else if (op->type == Float(32) && finite) {
        stream << float_to_string(op->value, 32) << 'f';
    } else if (finite) {
        stream << '(' << op->type << ')' << float_to_string(op->value, 64);
    } else {
        stream << '(' << op->type << ')' << (std::isnan(op->value) ? "nan" : op->value > 0 ? "inf" : "-inf");
    }
}

void IRPrinter::visit(const StringImm *op) {
    print_escaped(stream, op->value);
}

void IRPrinter::visit(const Cast *op) {
    stream << op->type << '(';
    print(op->value);
    stream << ')';
}

void IRPrinter::visit(const Variable *op) {
    stream << op->name;
}

void IRPrinter::visit(const Add *op) {
    print_infix(op->a, "+", op->b);
}
void IRPrinter::visit(const Sub *op) {
    print_infix(op->a, "-", op->b);
}
void IRPrinter::visit(const Mul *op) {
    print_infix(op->a, "*", op->b);
}
void IRPrinter::visit(const Div *op) {
    print_infix(op->a, "/", op->b);
}
void IRPrinter::visit(const Mod *op) {
    print_infix(op->a, "%", op->b);
}
void IRPrinter::visit(const Min *op) {
    print_call("min", op->a, op->b);
}
void IRPrinter::visit(const Max *op) {
    print_call("max", op->a, op->b);
}
void IRPrinter::visit(const EQ *op) {
    print_infix(op->a, "==", op->b);
}
void IRPrinter::visit(const NE *op) {
    print_infix(op->a, "!=", op->b);
}
void IRPrinter::visit(const LT *op) {
    print_infix(op->a, "<", op->b);
}
void IRPrinter::visit(const LE *op) {
    print_infix(op->a, "<=", op->b);
}
void IRPrinter::visit(const GT *op) {
    print_infix(op->a, ">", op->b);
}
void IRPrinter::visit(const GE *op) {
    print_infix(op->a, ">=", op->b);
}
void IRPrinter::visit(const And *op) {
    print_infix(op->a, "&&", op->b);
}
void IRPrinter::visit(const Or *op) {
    print_infix(op->a, "||", op->b);
}

void IRPrinter::visit(const Not *op) {
    stream << '!';
    print(op->a);
}

void IRPrinter::visit(const Select *op) {
    stream << "select(";
    print(op->condition);
    stream << ", ";
    print(op->true_value);
    stream << ", ";
    print(op->false_value);
    stream << ')';
}

void IRPrinter::visit(const Load *op) {
    stream << op->name << '[';
    print(op->index);
    stream << ']';
}

void IRPrinter::visit(const Ramp *op) {
    stream << "ramp(";
    print(op->base);
    stream << ", ";
    print(op->stride);
    stream << ", " << op->lanes << ')';
}

void IRPrinter::visit(const Broadcast *op) {
    stream << "x" << op->lanes << '(';
    print(op->value);
    stream << ')';
}

// A Tuple component other than the first prints as f.1(x, y).
void IRPrinter::visit(const Call *op) {
    stream << op->name;
    if (op->value_index != 0) {
        stream << '.' << op->value_index;
    }
    stream << '(';
    print_list(op->args);
    stream << ')';
}

void IRPrinter::visit(const Let *op) {
    stream << "(let " << op->name << " = ";
    print(op->value);
    stream << " in ";
    print(op->body);
    stream << ')';
}

void IRPrinter::visit(const LetStmt *op) {
    do_indent();
    stream << "let " << op->name << " = ";
    print(op->value);
    stream << '\n';
    print(op->body);
}

void IRPrinter::visit(const AssertStmt *op) {
    do_indent();
    stream << "assert(";
    print(op->condition);
    stream << ", ";
    print(op->message);
    stream << ")\n";
}

void IRPrinter::visit(const For *op) {
    do_indent();
    stream << for_type_prefix(op->for_type) << "for (" << op->name << ", ";
    print(op->min);
    stream << ", ";
    print(op->extent);
    stream << ") ";
    print_braced_body(op->body);
    stream << '\n';
}

void IRPrinter::visit(const Provide *op) {
    do_indent();
    stream << op->name << '(';
    print_list(op->args);
    stream << ") = ";
    if (op->values.size() == 1) {
        print(op->values[0]);
    } else {
        stream << '{';
        print_list(op->values);
        stream << '}';
    }
    stream << '\n';
}

void IRPrinter::visit(const Realize *op) {
    do_indent();
    stream << "realize " << op->name << '(';
    for (size_t i = 0; i < op->bounds.size(); i++) {
        if (i > 0) {
            stream << ", ";
        }
        stream << '[';
        print(op->bounds[i].min);
        stream << ", ";
        print(op->bounds[i].extent);
        stream << ']';
    }
    stream << ") ";
    print_braced_body(op->body);
    stream << '\n';
}

void IRPrinter::visit(const Store *op) {
    do_indent();
    stream << op->name << '[';
    print(op->index);
    stream << "] = ";
    print(op->value);
    stream << '\n';
}

void IRPrinter::visit(const Allocate *op) {
    do_indent();
    stream << "allocate " << op->name << '[' << op->type;
    for (const Expr &e : op->extents) {
        stream << " * ";
        print(e);
    }
    stream << ']';
    if (op->memory_type != MemoryType::Auto) {
        stream << " in " << op->memory_type;
    }
    if (op->new_expr.defined()) {
        // As upstream prints them.
        stream << "\n";
        do_indent();
        stream << " custom_new { ";
        print(op->new_expr);
        stream << " }\n";
        do_indent();
        stream << " custom_delete { " << op->free_function << "(" << op->name << "); }";
    }
    stream << ' ';
    print_braced_body(op->body);
    stream << '\n';
}

void IRPrinter::visit(const Block *op) {
    print(op->first);
    print(op->rest);
}

// else-if chains print flat: } else if (c) {
void IRPrinter::visit(const IfThenElse *op) {
    do_indent();
    const IfThenElse *cur = op;
    stream << "if (";
    print(cur->condition);
    stream << ") ";
    print_braced_body(cur->then_case);
    while (cur->else_case.defined()) {
        if (const IfThenElse *next = cur->else_case.as<IfThenElse>()) {
            stream << " else if (";
            print(next->condition);
            stream << ") ";
            print_braced_body(next->then_case);
            cur = next;
        } else {
            stream << " else ";
            print_braced_body(cur->else_case);
            break;
        }
    }
    stream << '\n';
}

void IRPrinter::visit(const ProducerConsumer *op) {
    do_indent();
    stream << (op->is_producer ? "produce " : "consume ") << op->name << ' ';
    print_braced_body(op->body);
    stream << '\n';
}

void IRPrinter::visit(const Atomic *op) {
    do_indent();
    stream << "atomic (" << op->producer_name << (op->mutex_name.empty() ? "" : ", " + op->mutex_name) << ") ";
    print_braced_body(op->body);
    stream << '\n';
}

void IRPrinter::visit(const Evaluate *op) {
    do_indent();
    print(op->value);
    stream << '\n';
}

} // namespace Internal
} // namespace Halide
