// Tenth C++ workload (role of vcalls.cpp), C++14 so that clang 14's default
// dialect takes it: replaced global operator new/delete (sized and array
// forms too), called from this file and from inside libstdc++ (std::string
// growth, std::vector reallocation); classes in an inline namespace (v3 in
// every mangled name); local classes with virtual functions, defined inside
// a function and inside a lambda, reaching the virtual call site of
// total_area() next to ordinary classes; virtual calls made from a
// constructor and a destructor (they reach the class under construction);
// a pure virtual function with a body called by qualified name; typeid
// comparisons and a dynamic_cast across to a second base; user-defined
// literals; a tagged union visited through a table of function-template
// instantiations built from std::index_sequence (the std::visit technique,
// by hand); a class with an abi_tag; a template template parameter; hidden
// friends; a function-local static with a guard whose destructor runs at
// exit; and members no run calls.  argv: COUNT.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

static long allocations, frees;
void *operator new(std::size_t n) {
  ++allocations;
  if (void *p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void *operator new[](std::size_t n) { return ::operator new(n); }
void operator delete(void *p) noexcept {
  if (p) ++frees;
  std::free(p);
}
void operator delete(void *p, std::size_t) noexcept { ::operator delete(p); }
void operator delete[](void *p) noexcept { ::operator delete(p); }
void operator delete[](void *p, std::size_t) noexcept { ::operator delete(p); }

namespace geo {
inline namespace v3 {
struct Shape {
  virtual ~Shape() {}
  virtual double area() const = 0;
  virtual const char *describe() const = 0;
};
const char *Shape::describe() const { return "shape"; }
struct Labelled {
  virtual ~Labelled() {}
  virtual int label() const { return 0; }
};
static int constructed_as[4];
struct Square : Shape, Labelled {
  double s;
  explicit Square(double v) : s(v) { constructed_as[kind()]++; }
  ~Square() override { constructed_as[kind()]--; }
  virtual int kind() const { return 1; }
  double area() const override { return s * s; }
  const char *describe() const override { return s > 3 ? Shape::describe() : "square"; }
  int label() const override { return (int)s; }
};
struct Cube final : Square {
  explicit Cube(double v) : Square(v) {}
  int kind() const override { return 2; }
  double area() const override { return 6 * Square::area(); }
};
struct Circle : Shape {
  double r;
  explicit Circle(double v) : r(v) {}
  double area() const override { return 3.14159 * r * r; }
  const char *describe() const override { return "circle"; }
};
struct __attribute__((abi_tag("tagged"))) Band : Circle {
  double inner;
  Band(double o, double i) : Circle(o), inner(i) {}
  double area() const override { return Circle::area() - 3.14159 * inner * inner; }
  friend bool thin(const Band &b) { return b.r - b.inner < 2; }
};
} // namespace v3
} // namespace geo

constexpr long double operator""_cm(long double v) { return v / 100.0L; }
constexpr unsigned long long operator""_k(unsigned long long v) { return v * 1000; }

__attribute__((noinline)) double total_area(const std::vector<std::unique_ptr<geo::Shape>> &v) {
  double a = 0;
  for (const auto &s : v) a += s->area();
  return a;
}

std::unique_ptr<geo::Shape> make_local(int i) {
  struct Hexagon : geo::Shape {
    double side;
    explicit Hexagon(double s) : side(s) {}
    double area() const override { return 2.598 * side * side; }
    const char *describe() const override { return "hexagon"; }
  };
  auto make_blob = [](int k) -> std::unique_ptr<geo::Shape> {
    struct Blob : geo::Shape {
      int k;
      explicit Blob(int v) : k(v) {}
      double area() const override { return k % 5 ? k * 0.5 : 0.0; }
      const char *describe() const override { return "blob"; }
    };
    return std::unique_ptr<geo::Shape>(new Blob(k));
  };
  if (i % 4 == 0) return std::unique_ptr<geo::Shape>(new Hexagon(i % 4 + 1));
  return make_blob(i);
}

// A tagged union visited through a table of template instantiations.
struct Value {
  int tag;
  union { int i; double d; const char *s; long l; };
};
template <std::size_t I> struct Visit;
template <> struct Visit<0> { static long run(const Value &v) { return v.i * 2; } };
template <> struct Visit<1> { static long run(const Value &v) { return (long)(v.d * 10); } };
template <> struct Visit<2> { static long run(const Value &v) { return v.s ? (long)std::string(v.s).size() : -1; } };
template <> struct Visit<3> { static long run(const Value &v) { return v.l > 100 ? v.l / 100 : v.l; } };
template <std::size_t... Is> long visit_impl(const Value &v, std::index_sequence<Is...>) {
  static long (*const table[])(const Value &) = {&Visit<Is>::run...};
  return table[v.tag](v);
}
long visit(const Value &v) { return visit_impl(v, std::make_index_sequence<4>()); }

template <template <class> class Box, class T> struct Pair {
  Box<T> first, second;
  T sum() const { return first.get() + second.get(); }
};
template <class T> struct Plain { T v; T get() const { return v; } };
template <class T> struct Doubled { T v; T get() const { return v * 2; } };

struct Registry {
  std::vector<std::string> names;
  ~Registry() { names.clear(); }
  int add(const char *n) {
    for (std::size_t k = 0; k < names.size(); k++)
      if (names[k] == n) return (int)k;
    names.emplace_back(n);
    return (int)names.size() - 1;
  }
};
Registry &registry() {
  static Registry r;
  return r;
}

int classify(const geo::Shape &s) {
  if (typeid(s) == typeid(geo::Cube)) return 3;
  if (typeid(s) == typeid(geo::Square)) return 2;
  if (const geo::Labelled *l = dynamic_cast<const geo::Labelled *>(&s)) return 10 + l->label();
  return typeid(s).name()[0] == 'Z' ? 4 : 1;
}

int never_called(const geo::Band &b) { return thin(b) ? 1 : (int)b.area(); }

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  std::vector<std::unique_ptr<geo::Shape>> shapes;
  for (int i = 0; i < n; i++) {
    switch (i % 6) {
    case 0: shapes.emplace_back(new geo::Square(i % 5 + 1)); break;
    case 1: shapes.emplace_back(new geo::Cube(i % 3 + 1)); break;
    case 2: shapes.emplace_back(new geo::Circle(125.0_cm * (i % 4))); break;
    case 3: shapes.emplace_back(new geo::Band(i % 7 + 2, 1)); break;
    default: shapes.push_back(make_local(i)); break;
    }
  }
  double a = total_area(shapes);
  long score = 0, kinds = 0;
  for (const auto &s : shapes) {
    kinds += classify(*s);
    score += registry().add(s->describe());
  }
  std::string log;
  for (int i = 0; i < n; i++) log += std::to_string(i % 97) + (i % 2 ? "," : ";");
  static const char *words[] = {"alpha", "be", nullptr, "gamma-delta"};
  for (int i = 0; i < n; i++) {
    Value v;
    v.tag = i % 4;
    switch (v.tag) {
    case 0: v.i = i; break;
    case 1: v.d = i / 3.0; break;
    case 2: v.s = words[i % 4]; break;
    default: v.l = (long)i * 37; break;
    }
    score += visit(v);
  }
  Pair<Plain, int> p{{n}, {3}};
  Pair<Doubled, long> q{{2_k}, {(long)n}};
  int thin_bands = 0;
  for (const auto &s : shapes)
    if (const geo::Band *b = dynamic_cast<const geo::Band *>(s.get())) thin_bands += thin(*b);
  int alive = geo::constructed_as[1] * 10 + geo::constructed_as[2];
  shapes.clear();
  std::printf("%.2f %ld %ld %zu %ld %d %d %ld %ld\n", a, kinds, score, log.size(), (long)p.sum() + q.sum(),
              thin_bands, alive + geo::constructed_as[1] + geo::constructed_as[2], allocations > 0 ? 1L : 0L,
              allocations - frees > 0 ? 1L : 0L);
  return 0;
}
