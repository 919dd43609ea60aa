// Eighth set: shapes behind virtual calls (a class deriving from a derived one,
// an empty override), std::sort with a lambda comparator, std::map<std::string>,
// unique_ptr, a function template taking a lambda, an anonymous namespace.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>
namespace geo {
struct Shape { virtual ~Shape() {} virtual double area() const = 0; virtual const char *name() const { return "shape"; } };
struct Square : Shape { double s; explicit Square(double v) : s(v) {} double area() const override { return s * s; } const char *name() const override { return "square"; } };
struct Circle : Shape { double r; explicit Circle(double v) : r(v) {} double area() const override { return 3.14159 * r * r; } };
struct Tri : Shape { double b, h; Tri(double x, double y) : b(x), h(y) {} double area() const override { return b * h / 2; } const char *name() const override { return "tri"; } };
struct Ring : Circle { double in; Ring(double o, double i) : Circle(o), in(i) {} double area() const override { return Circle::area() - 3.14159 * in * in; } };
struct Empty : Shape { double area() const override { return 0; } };
}
namespace {
template <typename T> T clampv(T v, T lo, T hi) { return v < lo ? lo : v > hi ? hi : v; }
unsigned seed = 1;
unsigned next() { seed = seed * 1103515245u + 12345u; return (seed >> 8) & 0xffffff; }
}
template <typename F> double sum_with(const std::vector<std::unique_ptr<geo::Shape>> &v, F f) {
  double t = 0;
  for (auto &p : v) t += f(*p);
  return t;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  seed = (unsigned)n;
  std::vector<std::unique_ptr<geo::Shape>> v;
  for (int i = 0; i < n; i++) {
    unsigned r = next() % 10;
    if (r < 5) v.emplace_back(new geo::Square(clampv<double>(r, 1, 4)));
    else if (r < 7) v.emplace_back(new geo::Circle(r * 0.5));
    else if (r < 9) v.emplace_back(new geo::Tri(r, 2));
    else if (i % 2) v.emplace_back(new geo::Ring(3, 1));
    else v.emplace_back(new geo::Empty());
  }
  std::sort(v.begin(), v.end(), [](const std::unique_ptr<geo::Shape> &a, const std::unique_ptr<geo::Shape> &b) { return a->area() < b->area(); });
  std::map<std::string, int> counts;
  for (auto &p : v) counts[p->name()]++;
  double t = sum_with(v, [](const geo::Shape &s) { return s.area(); });
  std::printf("%d %zu %.1f\n", n, counts.size(), t);
  return 0;
}
