// A webhook receiver for bench/tracking: answers every POST 200 at once and measures each event's lag,
// from its `time` (when it happened) to the moment the receiver answers the batch that carried it.
//
//   webhook_receiver PORT STATS_FILE
//
// After every batch it rewrites STATS_FILE with one line:
//   events batches lag_p50_ms lag_p90_ms lag_p99_ms lag_max_ms
// (duplicates count again: the gateway sends at least once). One thread, poll() over every connection,
// HTTP/1.1 with keep-alive and Content-Length bodies, which is what the gateway's webhook client sends.
// It stops by itself after an hour, or on SIGTERM.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNECTIONS 64
#define BUCKETS 600000 // 1 ms each, up to 10 minutes; later ones count in the last

typedef struct {
    int fd;
    char *buffer;
    size_t used, capacity;
} connection;

static connection connections[MAX_CONNECTIONS];
static unsigned long long histogram[BUCKETS];
static unsigned long long events, batches;
static long long max_lag_ms;
static volatile sig_atomic_t stopping;
static const char *stats_path;

static void on_signal(int signal) { (void)signal; stopping = 1; }

static long long now_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (long long)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

// "2026-11-28T05:12:33.123456Z" as microseconds since 1970; -1 when it is not one. The seconds of the
// last one parsed are kept: a batch's events mostly share them.
static long long parse_time(const char *text, size_t length) {
    static char last_prefix[20];
    static long long last_seconds = -1;
    if (length < 20 || text[4] != '-' || text[10] != 'T' || text[19] != '.') return -1;
    long long seconds;
    if (last_seconds >= 0 && memcmp(text, last_prefix, 19) == 0) {
        seconds = last_seconds;
    } else {
        struct tm civil = {0};
        if (sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d", &civil.tm_year, &civil.tm_mon, &civil.tm_mday, &civil.tm_hour,
                   &civil.tm_min, &civil.tm_sec) != 6)
            return -1;
        civil.tm_year -= 1900;
        civil.tm_mon -= 1;
        seconds = (long long)timegm(&civil);
        memcpy(last_prefix, text, 19);
        last_seconds = seconds;
    }
    long long fraction = 0, scale = 1000000;
    for (size_t i = 20; i < length && text[i] >= '0' && text[i] <= '9'; i++) {
        scale /= 10;
        fraction += (text[i] - '0') * scale;
    }
    return seconds * 1000000 + fraction;
}

static void record(const char *body, size_t length, long long answered_us) {
    static const char key[] = "\"time\":\"";
    const char *end = body + length, *at = body;
    while ((at = memmem(at, (size_t)(end - at), key, sizeof key - 1)) != NULL) {
        at += sizeof key - 1;
        const char *close = memchr(at, '"', (size_t)(end - at));
        if (close == NULL) break;
        long long occurred = parse_time(at, (size_t)(close - at));
        if (occurred >= 0) {
            long long lag_ms = (answered_us - occurred) / 1000;
            if (lag_ms < 0) lag_ms = 0;
            if (lag_ms > max_lag_ms) max_lag_ms = lag_ms;
            histogram[lag_ms < BUCKETS ? lag_ms : BUCKETS - 1]++;
            events++;
        }
        at = close;
    }
    batches++;
}

static long long percentile(double p) {
    unsigned long long wanted = (unsigned long long)(p * (double)events), seen = 0;
    long long top = max_lag_ms < BUCKETS ? max_lag_ms : BUCKETS - 1;
    for (long long i = 0; i <= top; i++) {
        seen += histogram[i];
        if (seen > wanted) return i;
    }
    return top;
}

static void write_stats(void) {
    char line[256];
    int n = snprintf(line, sizeof line, "%llu %llu %lld %lld %lld %lld\n", events, batches, percentile(0.5),
                     percentile(0.9), percentile(0.99), max_lag_ms);
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.tmp", stats_path);
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    if (write(fd, line, (size_t)n) != n) perror("write stats");
    close(fd);
    rename(temporary, stats_path);
}

static void drop(connection *c) {
    close(c->fd);
    free(c->buffer);
    memset(c, 0, sizeof *c);
    c->fd = -1;
}

// Answers every whole request in the connection's buffer; false when the connection should close.
static int serve(connection *c) {
    for (;;) {
        char *head_end = memmem(c->buffer, c->used, "\r\n\r\n", 4);
        if (head_end == NULL) return c->used < 65536;
        size_t head_length = (size_t)(head_end - c->buffer) + 4, body_length = 0;
        for (char *line = memchr(c->buffer, '\n', head_length); line != NULL && line < head_end;
             line = memchr(line + 1, '\n', (size_t)(head_end - line))) {
            if (strncasecmp(line + 1, "Content-Length:", 15) == 0) body_length = strtoul(line + 16, NULL, 10);
            if (strncasecmp(line + 1, "Transfer-Encoding:", 18) == 0) return 0; // not what the gateway sends
        }
        if (c->used < head_length + body_length) {
            if (c->capacity < head_length + body_length) {
                c->capacity = head_length + body_length;
                c->buffer = realloc(c->buffer, c->capacity);
            }
            return 1;
        }
        record(c->buffer + head_length, body_length, now_us());
        static const char answer[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
        if (write(c->fd, answer, sizeof answer - 1) != (ssize_t)(sizeof answer - 1)) return 0;
        write_stats();
        size_t consumed = head_length + body_length;
        memmove(c->buffer, c->buffer + consumed, c->used - consumed);
        c->used -= consumed;
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: webhook_receiver PORT STATS_FILE\n");
        return 2;
    }
    stats_path = argv[2];
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    int listener = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1]))};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 64) != 0) {
        perror("webhook_receiver: listen");
        return 1;
    }
    for (int i = 0; i < MAX_CONNECTIONS; i++) connections[i].fd = -1;
    write_stats();
    time_t deadline = time(NULL) + 3600;
    while (!stopping && time(NULL) < deadline) {
        struct pollfd polled[MAX_CONNECTIONS + 1];
        int slots[MAX_CONNECTIONS + 1], count = 0;
        polled[count] = (struct pollfd){.fd = listener, .events = POLLIN};
        slots[count++] = -1;
        for (int i = 0; i < MAX_CONNECTIONS; i++)
            if (connections[i].fd >= 0) {
                polled[count] = (struct pollfd){.fd = connections[i].fd, .events = POLLIN};
                slots[count++] = i;
            }
        if (poll(polled, (nfds_t)count, 1000) < 0) {
            if (errno == EINTR) continue;
            perror("poll");
            return 1;
        }
        if (polled[0].revents & POLLIN) {
            int fd = accept(listener, NULL, NULL);
            if (fd >= 0) {
                setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                int slot = -1;
                for (int i = 0; i < MAX_CONNECTIONS && slot < 0; i++)
                    if (connections[i].fd < 0) slot = i;
                if (slot < 0) {
                    close(fd);
                } else {
                    connections[slot] = (connection){.fd = fd, .buffer = malloc(65536), .capacity = 65536};
                }
            }
        }
        for (int k = 1; k < count; k++) {
            if (!(polled[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            connection *c = &connections[slots[k]];
            if (c->used == c->capacity) {
                c->capacity *= 2;
                c->buffer = realloc(c->buffer, c->capacity);
            }
            ssize_t got = read(c->fd, c->buffer + c->used, c->capacity - c->used);
            if (got <= 0) {
                drop(c);
                continue;
            }
            c->used += (size_t)got;
            if (!serve(c)) drop(c);
        }
    }
    write_stats();
    return 0;
}
