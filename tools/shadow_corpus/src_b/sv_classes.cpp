// Second C++ workload: a diamond with virtual inheritance, a virtual call
// site reaching ten classes, a function template instantiated with long
// nested template arguments (mangled names of several hundred characters),
// CRTP, variadic templates, generic lambdas and a member never called.
// argv: COUNT.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <utility>
#include <vector>

namespace geometry_workload_with_a_rather_long_namespace_name {
struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual int sides() const { return 0; }
};
struct Named : virtual Shape {
  int tag = 3;
  virtual int label() const { return tag; }
};
struct Coloured : virtual Shape {
  int colour = 5;
  virtual int label() const { return colour; }
};
struct Square : Named, Coloured {
  double s;
  explicit Square(double v) : s(v) {}
  double area() const override { return s * s; }
  int sides() const override { return 4; }
  int label() const override { return Named::label() + Coloured::label(); }
};
struct Tri : Named {
  double b, h;
  Tri(double x, double y) : b(x), h(y) {}
  double area() const override { return b * h / 2; }
  int sides() const override { return 3; }
};
struct Disc : Coloured {
  double r;
  explicit Disc(double v) : r(v) {}
  double area() const override { return 3.25 * r * r; }
};
template <int N> struct Poly : Shape {
  double side;
  explicit Poly(double v) : side(v) {}
  double area() const override { return side * side * N / 4.0; }
  int sides() const override { return N; }
};
struct Ring : Disc {
  double inner;
  Ring(double a, double b) : Disc(a), inner(b) {}
  double area() const override { return Disc::area() - 3.25 * inner * inner; }
  int sides() const override { return inner > 1 ? 2 : 1; }
};
struct Dot : Shape {
  double area() const override { return 0; }
  int sides() const override { throw 7; }
};
} // namespace geometry_workload_with_a_rather_long_namespace_name

namespace gw = geometry_workload_with_a_rather_long_namespace_name;

double total_area(const std::vector<gw::Shape *> &shapes) {
  double sum = 0;
  for (const gw::Shape *s : shapes)
    sum += s->area();
  return sum;
}

int total_sides(const std::vector<gw::Shape *> &shapes) {
  int sum = 0;
  for (const gw::Shape *s : shapes) {
    try {
      sum += s->sides();
    } catch (int e) {
      sum -= e;
    }
  }
  return sum;
}

template <typename Derived> struct Counter {
  int bump(int x) { return static_cast<Derived *>(this)->step(x) + 1; }
};
struct ByTwo : Counter<ByTwo> {
  int step(int x) { return x * 2; }
};
struct ByThree : Counter<ByThree> {
  int step(int x) { return x * 3 % 101; }
};

inline int sum_all() { return 0; }
template <typename T, typename... Ts> int sum_all(T x, Ts... xs) {
  return static_cast<int>(x) + sum_all(xs...);
}

template <typename Key, typename Value, typename Extra>
struct an_uncommonly_long_template_class_name_for_the_mangler {
  template <typename Fn>
  __attribute__((noinline)) static long run_with_a_descriptive_method_name(Fn fn, int n) {
    long acc = 0;
    for (int i = 0; i < n; i++)
      acc += fn(i, i % 7);
    return acc + static_cast<long>(sizeof(Key) + sizeof(Value) + sizeof(Extra));
  }
};

using long_first = std::pair<std::array<std::pair<long, unsigned char>, 3>,
                             std::pair<std::vector<short>, std::array<double, 2>>>;
using long_second = std::pair<long_first, std::pair<std::pair<int, long_first>, unsigned>>;

struct Unused {
  virtual ~Unused() = default;
  virtual int never_called_member(int x) const { return x * 13; }
};

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 50;
  std::vector<gw::Shape *> shapes;
  for (int i = 0; i < n; i++) {
    double v = 1 + i % 9;
    switch (i % 10) {
    case 0: shapes.push_back(new gw::Square(v)); break;
    case 1: shapes.push_back(new gw::Tri(v, v + 1)); break;
    case 2: shapes.push_back(new gw::Disc(v)); break;
    case 3: shapes.push_back(new gw::Poly<5>(v)); break;
    case 4: shapes.push_back(new gw::Poly<6>(v)); break;
    case 5: shapes.push_back(new gw::Poly<8>(v)); break;
    case 6: shapes.push_back(new gw::Ring(v, v / 3)); break;
    case 7: shapes.push_back(i % 3 ? static_cast<gw::Shape *>(new gw::Dot)
                                   : new gw::Square(v + 2)); break;
    case 8: shapes.push_back(new gw::Poly<12>(v)); break;
    default: shapes.push_back(new gw::Poly<7>(v)); break;
    }
  }
  double area = total_area(shapes);
  int sides = total_sides(shapes);
  int labels = 0;
  for (gw::Shape *s : shapes) {
    if (auto *named = dynamic_cast<gw::Named *>(s))
      labels += named->label();
    else if (auto *col = dynamic_cast<gw::Coloured *>(s))
      labels += col->label();
  }
  ByTwo two;
  ByThree three;
  int c = 0;
  for (int i = 0; i < n; i++)
    c += i % 4 ? two.bump(i) : three.bump(i);
  auto generic = [](auto a, auto b) { return a * 2 + b; };
  long lx = an_uncommonly_long_template_class_name_for_the_mangler<long_first, long_second,
      long_second>::run_with_a_descriptive_method_name(
      [&](int a, int) { return generic(a, 2); }, n);
  long ly = an_uncommonly_long_template_class_name_for_the_mangler<int, short, long_first>::
      run_with_a_descriptive_method_name([&](int a, int b) { return generic(a, b); }, n / 2);
  std::function<int(int)> pick = n > 200 ? std::function<int(int)>([](int x) { return x + 1; })
                                         : std::function<int(int)>([n](int x) { return x * n; });
  int s = sum_all(1, 2L, 3.5, 'a') + sum_all() + pick(n);
  std::printf("%.2f %d %d %d %ld %ld %d\n", area, sides, labels, c, lx, ly, s);
  for (gw::Shape *sh : shapes)
    delete sh;
  return 0;
}
