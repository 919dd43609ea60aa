// Ninth C++ workload: a shape hierarchy with two interfaces (multiple
// inheritance), a dozen virtual methods, class templates over the number type,
// lambdas stored in std::function and called through a registry, exceptions
// thrown from virtual methods and caught by type, and a visitor.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct Named {
  virtual ~Named() {}
  virtual const char *name() const = 0;
  virtual int tag() const { return 0; }
};
struct Measured {
  virtual ~Measured() {}
  virtual double area() const = 0;
  virtual double perimeter() const = 0;
  virtual double scale(double f) const { return area() * f; }
};
struct Visitor;
struct Shape : Named, Measured {
  virtual int corners() const = 0;
  virtual bool convex() const { return true; }
  virtual void grow(double) {}
  virtual int accept(Visitor &v) const;
  virtual void check() const {}
  virtual long fingerprint() const { return (long)(area() * 10) ^ corners(); }
};
struct Visitor {
  virtual ~Visitor() {}
  virtual int visit_round(const Shape &) { return 1; }
  virtual int visit_polygon(const Shape &s) { return s.corners(); }
};
int Shape::accept(Visitor &v) const { return corners() ? v.visit_polygon(*this) : v.visit_round(*this); }

template <typename T> struct Rect : Shape {
  T w, h;
  Rect(T a, T b) : w(a), h(b) {}
  const char *name() const override { return "rect"; }
  double area() const override { return (double)(w * h); }
  double perimeter() const override { return 2.0 * (double)(w + h); }
  int corners() const override { return 4; }
  void grow(double f) override { w = (T)(w * f); h = (T)(h * f); }
  void check() const override { if (w <= 0 || h <= 0) throw std::invalid_argument("empty rect"); }
};
template <typename T> struct Circle : Shape {
  T r;
  explicit Circle(T v) : r(v) {}
  const char *name() const override { return "circle"; }
  int tag() const override { return 7; }
  double area() const override { return 3.14159 * (double)r * (double)r; }
  double perimeter() const override { return 6.28318 * (double)r; }
  int corners() const override { return 0; }
  void check() const override { if (r > 1000) throw std::out_of_range("huge circle"); }
};
struct Triangle : Shape {
  double a, b, c;
  Triangle(double x, double y, double z) : a(x), b(y), c(z) {}
  const char *name() const override { return "triangle"; }
  double area() const override { double s = (a + b + c) / 2; double q = s * (s - a) * (s - b) * (s - c); return q > 0 ? q / (s + 1) : 0; }
  double perimeter() const override { return a + b + c; }
  int corners() const override { return 3; }
  double scale(double f) const override { return perimeter() * f; }
  void check() const override { if (a + b <= c) throw 42; }
};
struct Star : Shape {
  int points;
  explicit Star(int p) : points(p) {}
  const char *name() const override { return "star"; }
  int tag() const override { return points; }
  double area() const override { return points * 1.5; }
  double perimeter() const override { return points * 4.0; }
  int corners() const override { return points * 2; }
  bool convex() const override { return false; }
  long fingerprint() const override { return points * 1000003L; }
};
struct Counting : Visitor {
  int polys = 0;
  int visit_polygon(const Shape &s) override { polys++; return s.corners() * 2; }
};

template <typename Acc> Acc fold_shapes(const std::vector<std::unique_ptr<Shape>> &v, std::function<Acc(Acc, const Shape &)> f, Acc init) {
  for (auto &s : v) init = f(init, *s);
  return init;
}

double total_area(const std::vector<std::unique_ptr<Shape>> &v) {
  return fold_shapes<double>(v, [](double a, const Shape &s) { return a + s.area(); }, 0.0);
}

static std::unique_ptr<Shape> make_shape(int i) {
  switch (i % 7) {
  case 0: return std::unique_ptr<Shape>(new Rect<int>(i % 9, i % 5 + 1));
  case 1: return std::unique_ptr<Shape>(new Rect<double>(i * 0.5, 2.0));
  case 2: return std::unique_ptr<Shape>(new Circle<int>(i % 1200));
  case 3: return std::unique_ptr<Shape>(new Circle<float>((float)(i % 13) + 0.5f));
  case 4: return std::unique_ptr<Shape>(new Triangle(3 + i % 4, 4, 1 + i % 9));
  case 5: return std::unique_ptr<Shape>(new Star(i % 6 + 3));
  default: return std::unique_ptr<Shape>(new Rect<long>(i % 3, 7));
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 100;
  std::vector<std::unique_ptr<Shape>> shapes;
  for (int i = 0; i < n; i++) shapes.push_back(make_shape(i * 37 + 11));
  int errors_arg = 0, errors_range = 0, errors_int = 0;
  for (auto &s : shapes) {
    try {
      s->check();
    } catch (const std::invalid_argument &) {
      errors_arg++;
    } catch (const std::out_of_range &) {
      errors_range++;
    } catch (int) {
      errors_int++;
    }
  }
  std::vector<std::function<double(const Shape &)>> metrics;
  int bias = n % 5;
  metrics.push_back([](const Shape &s) { return s.perimeter(); });
  metrics.push_back([bias](const Shape &s) { return s.scale(1.0 + bias); });
  metrics.push_back([](const Shape &s) { return (double)s.tag() + s.convex(); });
  metrics.push_back([&errors_int](const Shape &s) { return (double)(s.fingerprint() % 97) + errors_int; });
  double m = 0;
  for (size_t i = 0; i < shapes.size(); i++) m += metrics[i % metrics.size()](*shapes[i]);
  Counting cv;
  Visitor plain;
  long visits = 0;
  for (size_t i = 0; i < shapes.size(); i++) visits += shapes[i]->accept(i % 3 ? (Visitor &)cv : plain);
  for (size_t i = 0; i < shapes.size(); i += 4) shapes[i]->grow(1.5);
  std::string names;
  for (size_t i = 0; i < shapes.size() && i < 20; i++) { names += shapes[i]->name(); names += ','; }
  double a = total_area(shapes);
  std::printf("%.1f %.1f %ld %d %d %d %d %zu\n", a, m, visits, cv.polys, errors_arg, errors_range, errors_int, names.size());
  return 0;
}
