// Eleventh-set C++ workload (role of vcalls.cpp), C++14 so that clang 14's
// default dialect takes it: a tiny expression language and a scene graph.
// Expressions are an AST of std::unique_ptr nodes (virtual destructors)
// built by a recursive-descent parser from generated source text; three
// visitors walk it by double dispatch (evaluate, print, measure depth);
// variables live in an std::unordered_map<std::string, double>; unknown
// names, division by zero and parse errors throw exceptions of a small
// hierarchy, caught per expression.  A scene graph of shapes (circle, rect,
// triangle, group of children) is summed by total_area() through one
// virtual call site; every node carries attributes in an
// std::vector<Attr>, Attr being a hand-written tagged union of
// int/double/std::string visited by a generic lambda (std::variant is
// C++17); a template Stats<T> is instantiated for int, long, double and
// float, and a template registry for two key types.  argv: COUNT.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

// ---- errors --------------------------------------------------------------
struct LangError : std::runtime_error {
  int pos;
  LangError(const std::string &m, int p) : std::runtime_error(m), pos(p) {}
};
struct ParseError : LangError { using LangError::LangError; };
struct EvalError : LangError { using LangError::LangError; };
struct DivByZero : EvalError { DivByZero(int p) : EvalError("division by zero", p) {} };

// ---- AST -------------------------------------------------------------------
struct Num; struct Var; struct Bin; struct Neg; struct Call; struct Let;
struct Visitor {
  virtual ~Visitor() = default;
  virtual void visit(const Num &) = 0;
  virtual void visit(const Var &) = 0;
  virtual void visit(const Bin &) = 0;
  virtual void visit(const Neg &) = 0;
  virtual void visit(const Call &) = 0;
  virtual void visit(const Let &) = 0;
};
struct Expr {
  int pos = 0;
  virtual ~Expr() = default;
  virtual void accept(Visitor &v) const = 0;
};
using ExprPtr = std::unique_ptr<Expr>;
struct Num final : Expr { double value; explicit Num(double v) : value(v) {} void accept(Visitor &v) const override { v.visit(*this); } };
struct Var final : Expr { std::string name; explicit Var(std::string n) : name(std::move(n)) {} void accept(Visitor &v) const override { v.visit(*this); } };
struct Bin final : Expr {
  char op; ExprPtr lhs, rhs;
  Bin(char o, ExprPtr l, ExprPtr r) : op(o), lhs(std::move(l)), rhs(std::move(r)) {}
  void accept(Visitor &v) const override { v.visit(*this); }
};
struct Neg final : Expr { ExprPtr inner; explicit Neg(ExprPtr e) : inner(std::move(e)) {} void accept(Visitor &v) const override { v.visit(*this); } };
struct Call final : Expr {
  std::string fn; std::vector<ExprPtr> args;
  void accept(Visitor &v) const override { v.visit(*this); }
};
struct Let final : Expr {
  std::string name; ExprPtr value, body;
  void accept(Visitor &v) const override { v.visit(*this); }
};

// ---- parser ----------------------------------------------------------------
class Parser {
 public:
  explicit Parser(const std::string &s) : src_(s) {}
  ExprPtr parse() {
    ExprPtr e = expr();
    skip();
    if (at_ < src_.size()) throw ParseError("trailing input", (int)at_);
    return e;
  }
 private:
  const std::string &src_;
  size_t at_ = 0;
  void skip() { while (at_ < src_.size() && src_[at_] == ' ') ++at_; }
  bool eat(char c) { skip(); if (at_ < src_.size() && src_[at_] == c) { ++at_; return true; } return false; }
  std::string ident() {
    skip();
    size_t start = at_;
    while (at_ < src_.size() && (std::isalnum((unsigned char)src_[at_]) || src_[at_] == '_')) ++at_;
    if (start == at_) throw ParseError("name expected", (int)at_);
    return src_.substr(start, at_ - start);
  }
  ExprPtr expr() {
    ExprPtr l = term();
    for (;;) {
      if (eat('+')) l = ExprPtr(new Bin('+', std::move(l), term()));
      else if (eat('-')) l = ExprPtr(new Bin('-', std::move(l), term()));
      else return l;
    }
  }
  ExprPtr term() {
    ExprPtr l = unary();
    for (;;) {
      if (eat('*')) l = ExprPtr(new Bin('*', std::move(l), unary()));
      else if (eat('/')) l = ExprPtr(new Bin('/', std::move(l), unary()));
      else return l;
    }
  }
  ExprPtr unary() {
    if (eat('-')) return ExprPtr(new Neg(unary()));
    return primary();
  }
  ExprPtr primary() {
    skip();
    if (at_ >= src_.size()) throw ParseError("unexpected end", (int)at_);
    char c = src_[at_];
    if (eat('(')) {
      ExprPtr e = expr();
      if (!eat(')')) throw ParseError("')' expected", (int)at_);
      return e;
    }
    if (std::isdigit((unsigned char)c)) {
      size_t used = 0;
      double v = std::stod(src_.substr(at_), &used);
      at_ += used;
      return ExprPtr(new Num(v));
    }
    std::string name = ident();
    if (name == "let") {
      std::unique_ptr<Let> let(new Let);
      let->name = ident();
      if (!eat('=')) throw ParseError("'=' expected", (int)at_);
      let->value = expr();
      if (!eat(';')) throw ParseError("';' expected", (int)at_);
      let->body = expr();
      return std::move(let);
    }
    if (eat('(')) {
      std::unique_ptr<Call> call(new Call);
      call->fn = name;
      if (!eat(')')) {
        do call->args.push_back(expr()); while (eat(','));
        if (!eat(')')) throw ParseError("')' expected after arguments", (int)at_);
      }
      return std::move(call);
    }
    return ExprPtr(new Var(name));
  }
};

// ---- visitors ----------------------------------------------------------------
class Evaluator final : public Visitor {
 public:
  explicit Evaluator(std::unordered_map<std::string, double> &env) : env_(env) {}
  double result = 0;
  double eval(const Expr &e) { e.accept(*this); return result; }
  void visit(const Num &n) override { result = n.value; }
  void visit(const Var &v) override {
    auto it = env_.find(v.name);
    if (it == env_.end()) throw EvalError("unknown variable " + v.name, v.pos);
    result = it->second;
  }
  void visit(const Bin &b) override {
    double l = eval(*b.lhs), r = eval(*b.rhs);
    switch (b.op) {
    case '+': result = l + r; break;
    case '-': result = l - r; break;
    case '*': result = l * r; break;
    default:
      if (r == 0) throw DivByZero(b.pos);
      result = l / r;
    }
  }
  void visit(const Neg &n) override { result = -eval(*n.inner); }
  void visit(const Call &c) override {
    std::vector<double> a;
    for (const auto &e : c.args) a.push_back(eval(*e));
    if (c.fn == "max" && !a.empty()) { double m = a[0]; for (double x : a) if (x > m) m = x; result = m; }
    else if (c.fn == "sqrt" && a.size() == 1) result = std::sqrt(std::fabs(a[0]));
    else if (c.fn == "sum") { double s = 0; for (double x : a) s += x; result = s; }
    else throw EvalError("bad call " + c.fn, c.pos);
  }
  void visit(const Let &l) override {
    double v = eval(*l.value);
    auto saved = env_.find(l.name) != env_.end() ? env_[l.name] : NAN;
    env_[l.name] = v;
    double r = eval(*l.body);
    if (std::isnan(saved)) env_.erase(l.name); else env_[l.name] = saved;
    result = r;
  }
 private:
  std::unordered_map<std::string, double> &env_;
};

class Printer final : public Visitor {
 public:
  std::string out;
  void visit(const Num &n) override { char b[32]; std::snprintf(b, sizeof b, "%g", n.value); out += b; }
  void visit(const Var &v) override { out += v.name; }
  void visit(const Bin &b) override { out += '('; b.lhs->accept(*this); out += ' '; out += b.op; out += ' '; b.rhs->accept(*this); out += ')'; }
  void visit(const Neg &n) override { out += "-"; n.inner->accept(*this); }
  void visit(const Call &c) override {
    out += c.fn + "(";
    for (size_t i = 0; i < c.args.size(); ++i) { if (i) out += ", "; c.args[i]->accept(*this); }
    out += ")";
  }
  void visit(const Let &l) override { out += "let " + l.name + " = "; l.value->accept(*this); out += "; "; l.body->accept(*this); }
};

class DepthCounter final : public Visitor {
 public:
  int depth = 0, best = 0;
  void enter(const Expr &e) { ++depth; if (depth > best) best = depth; e.accept(*this); --depth; }
  void visit(const Num &) override {}
  void visit(const Var &) override {}
  void visit(const Bin &b) override { enter(*b.lhs); enter(*b.rhs); }
  void visit(const Neg &n) override { enter(*n.inner); }
  void visit(const Call &c) override { for (const auto &a : c.args) enter(*a); }
  void visit(const Let &l) override { enter(*l.value); enter(*l.body); }
};

// ---- attributes: a tagged union ------------------------------------------------
class Attr {
 public:
  enum Kind { Int, Real, Text };
  Attr(int v) : kind_(Int), i_(v) {}
  Attr(double v) : kind_(Real), d_(v) {}
  Attr(std::string v) : kind_(Text) { new (&s_) std::string(std::move(v)); }
  Attr(const Attr &o) : kind_(o.kind_) { copy_from(o); }
  Attr(Attr &&o) noexcept : kind_(o.kind_) {
    if (kind_ == Text) new (&s_) std::string(std::move(o.s_)); else if (kind_ == Int) i_ = o.i_; else d_ = o.d_;
  }
  Attr &operator=(const Attr &o) { if (this != &o) { destroy(); kind_ = o.kind_; copy_from(o); } return *this; }
  ~Attr() { destroy(); }
  template <class F> auto visit(F &&f) const -> decltype(f(0)) {
    switch (kind_) {
    case Int: return f(i_);
    case Real: return f(d_);
    default: return f(s_);
    }
  }
 private:
  Kind kind_;
  union { int i_; double d_; std::string s_; };
  void copy_from(const Attr &o) {
    if (kind_ == Text) new (&s_) std::string(o.s_); else if (kind_ == Int) i_ = o.i_; else d_ = o.d_;
  }
  void destroy() { if (kind_ == Text) s_.~basic_string(); }
};
struct AttrWeight {
  double operator()(int v) const { return v; }
  double operator()(double v) const { return v * 0.5; }
  double operator()(const std::string &s) const { return (double)s.size(); }
};

// ---- scene graph -----------------------------------------------------------------
class Shape {
 public:
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual const char *kind() const = 0;
  std::vector<Attr> attrs;
};
class Circle : public Shape {
  double r_;
 public:
  explicit Circle(double r) : r_(r) {}
  double area() const override { return 3.14159265 * r_ * r_; }
  const char *kind() const override { return "circle"; }
};
class Rect : public Shape {
 protected:
  double w_, h_;
 public:
  Rect(double w, double h) : w_(w), h_(h) {}
  double area() const override { return w_ * h_; }
  const char *kind() const override { return "rect"; }
};
class Square final : public Rect {
 public:
  explicit Square(double s) : Rect(s, s) {}
  const char *kind() const override { return "square"; }
};
class Tri final : public Shape {
  double a_, b_, c_;
 public:
  Tri(double a, double b, double c) : a_(a), b_(b), c_(c) {}
  double area() const override {
    double s = (a_ + b_ + c_) / 2, q = s * (s - a_) * (s - b_) * (s - c_);
    return q > 0 ? std::sqrt(q) : 0.0;
  }
  const char *kind() const override { return "tri"; }
};
double total_area(const std::vector<std::unique_ptr<Shape>> &v);
class Group final : public Shape {
 public:
  std::vector<std::unique_ptr<Shape>> children;
  double area() const override { return total_area(children); }
  const char *kind() const override { return "group"; }
};

__attribute__((noinline)) double total_area(const std::vector<std::unique_ptr<Shape>> &v) {
  double a = 0;
  for (const auto &s : v) a += s->area();
  return a;
}

// ---- templates -------------------------------------------------------------------
template <typename T> struct Stats {
  T lo{}, hi{};
  long n = 0;
  double sum = 0;
  void add(T v) {
    if (n == 0 || v < lo) lo = v;
    if (n == 0 || v > hi) hi = v;
    ++n;
    sum += (double)v;
  }
  double mean() const { return n ? sum / (double)n : 0.0; }
};

template <typename K> class Registry {
  std::unordered_map<K, int> ids_;
 public:
  int intern(const K &k) {
    auto it = ids_.find(k);
    if (it != ids_.end()) return it->second;
    int id = (int)ids_.size();
    ids_.emplace(k, id);
    return id;
  }
  size_t size() const { return ids_.size(); }
};

static std::unique_ptr<Shape> make_shape(int i, Registry<std::string> &kinds) {
  std::unique_ptr<Shape> s;
  switch (i % 7) {
  case 0: case 4: s.reset(new Circle(1 + i % 5)); break;
  case 1: s.reset(new Rect(1 + i % 3, 2 + i % 4)); break;
  case 2: s.reset(new Square(1.5 + i % 2)); break;
  case 3: s.reset(new Tri(3, 4, 5 + i % 2)); break;
  default: {
    Group *g = new Group;
    for (int k = 0; k < 1 + i % 4; ++k) g->children.push_back(make_shape(i + k * 3 + 1 == i ? 0 : (k * 2 + 1), kinds));
    s.reset(g);
  }
  }
  s->attrs.emplace_back(i);
  if (i % 2) s->attrs.emplace_back(i * 0.25);
  if (i % 3 == 0) s->attrs.emplace_back(std::string(s->kind()) + "#" + std::to_string(i));
  kinds.intern(s->kind());
  return s;
}

static std::string gen_expr(int i) {
  static const char *const forms[] = {
      "1 + 2 * x", "let y = x * 2; y - 3 / (x - 4)", "max(x, 7, y0) + 1",
      "sqrt(x * x + 9)", "-(x - 5) * (x + 5)", "sum(1, 2, 3, x) / (x - x)",
      "z + 1", "(x + 1", "let q = 3; q * q + nope(2)", "x * x * x - 10 / 2",
      "max()", "12 34"};
  std::string s = forms[i % 12];
  if (i % 5 == 0) s = "(" + s + ") + " + std::to_string(i);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  std::unordered_map<std::string, double> env{{"x", 3.0}, {"y0", 10.0}};
  Stats<int> depth_stats;
  Stats<double> value_stats;
  Stats<long> length_stats;
  Stats<float> area_stats;
  Registry<std::string> kinds;
  Registry<int> error_positions;
  int parse_errors = 0, eval_errors = 0, div_errors = 0;
  for (int i = 0; i < n; ++i) {
    env["x"] = (double)(i % 11);
    std::string text = gen_expr(i);
    try {
      ExprPtr e = Parser(text).parse();
      DepthCounter d;
      d.enter(*e);
      depth_stats.add(d.best);
      Printer p;
      e->accept(p);
      length_stats.add((long)p.out.size());
      Evaluator ev(env);
      value_stats.add(ev.eval(*e));
    } catch (const ParseError &err) {
      ++parse_errors;
      error_positions.intern(err.pos);
    } catch (const DivByZero &) {
      ++div_errors;
    } catch (const EvalError &err) {
      ++eval_errors;
      error_positions.intern(-err.pos - 1);
    }
  }
  std::vector<std::unique_ptr<Shape>> scene;
  for (int i = 0; i < n / 3 + 1; ++i) scene.push_back(make_shape(i, kinds));
  double area = total_area(scene);
  double weight = 0;
  for (const auto &s : scene) {
    area_stats.add((float)s->area());
    for (const Attr &a : s->attrs) weight += a.visit(AttrWeight());
  }
  std::printf("%d %d %d %.2f %.2f %.2f %ld %.1f %.1f %zu %zu\n", parse_errors, eval_errors, div_errors,
              depth_stats.mean(), value_stats.mean(), length_stats.mean(), length_stats.hi, area,
              weight + area_stats.mean(), kinds.size(), error_positions.size());
  return 0;
}
