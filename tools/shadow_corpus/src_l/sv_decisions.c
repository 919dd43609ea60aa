/* Eleventh-set MC/DC workload (role of mcdc_demo.c): an HTTP/1.x request
 * parser and router.  The decisions of two to six conditions are the
 * parser's own: token and header-value character classes (macros that
 * expand into compound conditions), method and version checks, header
 * rules (Content-Length vs Transfer-Encoding, Host required for 1.1,
 * keep-alive), a percent-decoder for the path, a router matching method and
 * path prefix with an authorization check, and triple(), the rate limiter's
 * three-condition verdict.  Requests are generated from argv[1] (each
 * number gives other methods, versions, headers and damage).  argv: N. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IS_UPPER(c) ((c) >= 'A' && (c) <= 'Z')
#define IS_DIGIT(c) ((c) >= '0' && (c) <= '9')
#define IS_TCHAR(c) (IS_UPPER(c) || ((c) >= 'a' && (c) <= 'z') || IS_DIGIT(c) || (c) == '-')
#define IS_VCHAR(c) ((c) >= 0x21 && (c) <= 0x7e)
#define IS_HEXD(c) (IS_DIGIT(c) || ((c) >= 'a' && (c) <= 'f') || ((c) >= 'A' && (c) <= 'F'))

typedef struct {
  char method[8];
  char path[64];
  int major, minor;
  long content_length;
  int chunked, has_host, keep_alive, has_auth, has_cl;
  int error;
} request_t;

static int hexval(int c) { return IS_DIGIT(c) ? c - '0' : (c | 0x20) - 'a' + 10; }

/* Percent-decoding of the path; rejects "..", NUL and bad escapes. */
static int decode_path(const char *in, int n, char *out, int cap) {
  int o = 0;
  for (int i = 0; i < n; i++) {
    int c = (unsigned char)in[i];
    if (c == '%' && i + 2 < n && IS_HEXD(in[i + 1]) && IS_HEXD(in[i + 2])) {
      c = hexval(in[i + 1]) * 16 + hexval(in[i + 2]);
      i += 2;
    } else if (c == '%') {
      return -1;
    }
    if (c == 0 || (c == '.' && o > 0 && out[o - 1] == '.' && (i + 1 == n || in[i + 1] == '/')))
      return -2;
    if (o < cap - 1) out[o++] = (char)c;
  }
  out[o] = 0;
  return o;
}

static int parse_request_line(const char *line, request_t *r) {
  int i = 0, m = 0;
  while (IS_UPPER(line[i]) && m < 7) r->method[m++] = line[i++];
  r->method[m] = 0;
  if (m == 0 || line[i] != ' ') return 1;
  int start = ++i;
  while (line[i] && line[i] != ' ' && IS_VCHAR(line[i])) i++;
  if (line[start] != '/' || line[i] != ' ') return 2;
  if (decode_path(line + start, i - start, r->path, sizeof r->path) < 0) return 3;
  i++;
  if (strncmp(line + i, "HTTP/", 5) != 0) return 4;
  i += 5;
  char a = line[i], dot = line[i + 1], b = line[i + 2];
  if (!IS_DIGIT(a) || dot != '.' || !IS_DIGIT(b) || line[i + 3] != 0) return 5;
  r->major = a - '0';
  r->minor = b - '0';
  if (r->major != 1 || (r->minor != 0 && r->minor != 1)) return 6;
  return 0;
}

static int parse_header(const char *line, request_t *r) {
  int i = 0;
  while (IS_TCHAR(line[i])) i++;
  if (i == 0 || line[i] != ':') return 10;
  int name_len = i++;
  while (line[i] == ' ' || line[i] == '\t') i++;
  const char *value = line + i;
  for (const char *v = value; *v; v++)
    if (!IS_VCHAR(*v) && *v != ' ' && *v != '\t') return 11;
  if (name_len == 4 && strncasecmp(line, "host", 4) == 0) {
    if (r->has_host || !*value) return 12;
    r->has_host = 1;
  } else if (name_len == 14 && strncasecmp(line, "content-length", 14) == 0) {
    char *end;
    long n = strtol(value, &end, 10);
    if (end == value || *end || n < 0 || (r->has_cl && n != r->content_length)) return 13;
    r->content_length = n;
    r->has_cl = 1;
  } else if (name_len == 17 && strncasecmp(line, "transfer-encoding", 17) == 0) {
    r->chunked = strcmp(value, "chunked") == 0;
  } else if (name_len == 10 && strncasecmp(line, "connection", 10) == 0) {
    r->keep_alive = strcasecmp(value, "keep-alive") == 0 ||
                    (r->minor == 1 && strcasecmp(value, "close") != 0);
  } else if (name_len == 13 && strncasecmp(line, "authorization", 13) == 0) {
    r->has_auth = strncmp(value, "Bearer ", 7) == 0 && strlen(value) > 10;
  }
  return 0;
}

/* Message-level rules. */
static int validate(const request_t *r) {
  if (r->chunked && r->has_cl) return 20;                        /* smuggling */
  if (r->major == 1 && r->minor == 1 && !r->has_host) return 21;  /* Host required */
  int body = r->has_cl && r->content_length > 0;
  if ((strcmp(r->method, "GET") == 0 || strcmp(r->method, "HEAD") == 0) && (body || r->chunked))
    return 22;
  if (strcmp(r->method, "POST") == 0 && !r->has_cl && !r->chunked && r->minor == 1) return 23;
  return 0;
}

/* The rate limiter: over budget and not authorized, or a client in class 2 (throttled). */
int triple(int x, int y, int z) { return (x > 3 && y != 1) || z == 2; }

static int route(const request_t *r, int burst) {
  int is_get = strcmp(r->method, "GET") == 0, is_post = strcmp(r->method, "POST") == 0;
  int admin = strncmp(r->path, "/admin", 6) == 0;
  int health = strcmp(r->path, "/health") == 0;
  if (!health && triple(burst, r->has_auth, (burst + r->minor) % 5)) return 429;
  if (admin && (!r->has_auth || (!is_get && !is_post))) return 403;
  if ((is_get || strcmp(r->method, "HEAD") == 0) && (health || strncmp(r->path, "/static/", 8) == 0))
    return 200;
  if (is_post && strncmp(r->path, "/api/", 5) == 0 && r->has_auth && !r->chunked && r->content_length < 4096)
    return 201;
  if (r->keep_alive && r->minor == 1 && burst < 2) return 204;
  return 404;
}

static const char *const methods[] = {"GET", "POST", "HEAD", "PUT", "get", "DELETE", "POST", "GET"};
static const char *const paths[] = {"/", "/health", "/static/app.js", "/api/items", "/admin/users",
                                    "/a%2Fb", "/bad%zz", "/x/../etc", "/api/%41%42", "nopath"};
static const char *const versions[] = {"HTTP/1.1", "HTTP/1.0", "HTTP/1.1", "HTTP/2.0",
                                       "HTTP/1.1", "HTTP/1.x", "HTTX/1.1"};

static int handle(int k, int burst, int *status) {
  char line[128];
  request_t r;
  memset(&r, 0, sizeof r);
  snprintf(line, sizeof line, "%s %s %s", methods[k % 8], paths[(k / 2) % 10], versions[(k / 7) % 7]);
  if (k % 23 == 0) line[3] = '\t';
  int err = parse_request_line(line, &r);
  if (err) return err;
  const char *headers[6];
  int nh = 0;
  if (k % 4 != 3) headers[nh++] = k % 9 == 0 ? "Host:" : "Host: example.org";
  if (k % 3 == 0) headers[nh++] = k % 6 == 0 ? "Content-Length: 12" : "Content-Length: x1";
  if (k % 5 == 1) headers[nh++] = "Transfer-Encoding: chunked";
  if (k % 2 == 0) headers[nh++] = k % 8 == 0 ? "Connection: close" : "Connection: keep-alive";
  if (k % 7 < 4) headers[nh++] = k % 11 == 0 ? "Authorization: Basic xyz" : "Authorization: Bearer abcdef";
  if (k % 13 == 5) headers[nh++] = "Bad Header: 1";
  for (int h = 0; h < nh; h++)
    if ((err = parse_header(headers[h], &r)) != 0) return err;
  if ((err = validate(&r)) != 0) return err;
  *status = route(&r, burst);
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 4;
  int errors[32] = {0}, statuses[6] = {0};
  for (int i = 0; i < n * 12; i++) {
    int status = 0;
    int err = handle(i * 5 + n, (i / 3) % 6, &status);
    if (err) errors[err % 32]++;
    else statuses[status % 6]++;
  }
  for (int x = 0; x < 6; x++)
    for (int y = 0; y < 3; y++)
      statuses[triple(x, y, (x + y + n) % 4)]++;
  for (int i = 0; i < 32; i++) if (errors[i]) printf("e%d=%d ", i, errors[i]);
  for (int i = 0; i < 6; i++) printf("s%d=%d ", i, statuses[i]);
  printf("\n");
  return 0;
}
