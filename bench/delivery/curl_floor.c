// bench/delivery's "libcurl alone" row: the least any sender built on libcurl's multi interface can
// spend per push. It posts one payload per token URI over HTTP/2 with the gateway's headers, connections,
// streams and threads (one multi handle per thread, each with its share of the connections and pushes in
// flight), reusing each easy handle for the next push. Like the gateway, each push carries an `apns-id`
// of its own and the answer's headers are passed to a callback (which ignores them). It does nothing
// else: no database, no payload building, no bookkeeping. The gateway's own work is what it spends above
// this.
//
//   curl_floor URIS PAYLOAD CA_FILE PROVIDER_TOKEN EXPIRATION CONNECTIONS STREAMS THREADS
//
// Like the gateway, it leaves unsent the RST_STREAM libcurl 7.88 writes for every stream the server already
// closed with an answer that had no body (built with Sources/CurlStreamReset/StreamResetFilter.c), answers
// libcurl's repeated checks of a socket within one `curl_multi_perform` from the pass's first quiet answer
// (Sources/CurlPollCache/PollCache.c), corks its sockets, pushing out what they hold before each wait
// (CurlSockets.flush), and allocates through jemalloc (bench/lib/setup.sh links it ahead of libc).
//
// Prints "pushes_per_second cpu_ms" (CPU: user + system of the whole process). Exits 1 unless every push
// was answered 200.
#include "CurlPollCache.h"
#include <curl/curl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct lane {
    char **uris;
    char **all_uris;
    long count;
    long connections;
    long streams;
    long answered_ok;
    pthread_t thread;
    int sockets[64];
    int socket_count;
};

// Each new connection's socket is corked: a pass's frames leave in full segments.
static int cork_socket(void *user, curl_socket_t socket, curlsocktype purpose) {
    struct lane *lane = user;
    int on = 1;
    if (purpose == CURLSOCKTYPE_IPCXN) setsockopt(socket, IPPROTO_TCP, TCP_CORK, &on, sizeof on);
    if (lane->socket_count < 64) lane->sockets[lane->socket_count++] = socket;
    return CURL_SOCKOPT_OK;
}

static int close_socket(void *user, curl_socket_t socket) {
    struct lane *lane = user;
    for (int i = 0; i < lane->socket_count; i++) {
        if (lane->sockets[i] == socket) lane->sockets[i] = lane->sockets[--lane->socket_count];
    }
    return close(socket);
}

// TCP_NODELAY pushes out what the cork holds and leaves the cork in place (tcp(7)).
static void flush_sockets(struct lane *lane) {
    int on = 1;
    for (int i = 0; i < lane->socket_count; i++) setsockopt(lane->sockets[i], IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

static const char *payload;
static long payload_length;
static const char *ca_file;
static struct curl_slist *headers;

// The answer's body and header lines alike: taken and dropped.
static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data;
    (void)user;
    return size * count;
}

/// The push's own header line (`apns-id`), followed by the shared ones. The handle's previous own line
/// (kept as its private pointer) is freed first.
static void set_push(CURL *easy, const char *uri, unsigned long lane_number, unsigned long serial) {
    struct curl_slist *previous = NULL;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&previous);
    if (previous) {
        previous->next = NULL;
        curl_slist_free_all(previous);
    }
    char line[64];
    snprintf(line, sizeof line, "apns-id: %08lx-0000-4000-8000-%012lx", lane_number, serial);
    struct curl_slist *own = curl_slist_append(NULL, line);
    own->next = headers;
    curl_easy_setopt(easy, CURLOPT_PRIVATE, (char *)own);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, own);
    curl_easy_setopt(easy, CURLOPT_URL, uri);
}

static void free_transfer(CURL *easy) {
    struct curl_slist *own = NULL;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&own);
    curl_easy_cleanup(easy);
    if (own) {
        own->next = NULL;
        curl_slist_free_all(own);
    }
}

static CURL *new_transfer(struct lane *lane) {
    CURL *easy = curl_easy_init();
    curl_easy_setopt(easy, CURLOPT_SOCKOPTFUNCTION, cork_socket);
    curl_easy_setopt(easy, CURLOPT_SOCKOPTDATA, lane);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETFUNCTION, close_socket);
    curl_easy_setopt(easy, CURLOPT_CLOSESOCKETDATA, lane);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, (long)CURL_HTTP_VERSION_2TLS);
    curl_easy_setopt(easy, CURLOPT_CAINFO, ca_file);
    curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, payload);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, payload_length);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, discard);
    return easy;
}

static void *run_lane(void *argument) {
    struct lane *lane = argument;
    unsigned long lane_number = (unsigned long)(lane->uris - lane->all_uris), serial = 0;
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, lane->connections);
    curl_multi_setopt(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, lane->streams);
    long next = 0, finished = 0, in_flight = lane->connections * lane->streams;
    // The handles a pass finished: at most every one in flight.
    CURL **done = calloc((size_t)in_flight, sizeof(CURL *));
    for (long i = 0; i < in_flight && next < lane->count; i++) {
        CURL *easy = new_transfer(lane);
        set_push(easy, lane->uris[next++], lane_number, ++serial);
        curl_multi_add_handle(multi, easy);
    }
    while (finished < lane->count) {
        int running = 0, queued = 0;
        lg_poll_cache_begin_pass();
        curl_multi_perform(multi, &running);
        lg_poll_cache_end_pass();
        // Every message is read before any handle is removed, as the gateway's lanes do: removing a
        // handle makes libcurl 7.88 look through the messages not yet read for one of that handle's.
        long done_count = 0;
        CURLMsg *message;
        while ((message = curl_multi_info_read(multi, &queued))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            if (message->data.result == CURLE_OK && status == 200) lane->answered_ok++;
            done[done_count++] = easy;
        }
        for (long i = 0; i < done_count; i++) {
            CURL *easy = done[i];
            finished++;
            curl_multi_remove_handle(multi, easy);
            if (next < lane->count) {
                set_push(easy, lane->uris[next++], lane_number, ++serial);
                curl_multi_add_handle(multi, easy);
            } else {
                free_transfer(easy);
            }
        }
        flush_sockets(lane);
        if (finished < lane->count) curl_multi_poll(multi, NULL, 0, 100, NULL);
    }
    curl_multi_cleanup(multi);
    free(done);
    return NULL;
}

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static char *read_file(const char *path, long *length) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(2); }
    fseek(file, 0, SEEK_END);
    *length = ftell(file);
    rewind(file);
    char *text = malloc((size_t)*length + 1);
    if (fread(text, 1, (size_t)*length, file) != (size_t)*length) { perror(path); exit(2); }
    text[*length] = 0;
    fclose(file);
    return text;
}

int main(int argc, char **argv) {
    if (argc != 9) {
        fprintf(stderr, "usage: curl_floor URIS PAYLOAD CA_FILE PROVIDER_TOKEN EXPIRATION CONNECTIONS STREAMS THREADS\n");
        return 2;
    }
    long uris_length = 0;
    char *uri_text = read_file(argv[1], &uris_length);
    payload = read_file(argv[2], &payload_length);
    ca_file = argv[3];
    long connections = atol(argv[6]), streams = atol(argv[7]), threads = atol(argv[8]);
    if (threads < 1 || connections < threads) { fprintf(stderr, "need 1 <= THREADS <= CONNECTIONS\n"); return 2; }

    long total = 0;
    for (long i = 0; i < uris_length; i++) total += uri_text[i] == '\n';
    char **uris = malloc(sizeof(char *) * (size_t)total);
    char *line = strtok(uri_text, "\n");
    for (long i = 0; i < total && line; i++, line = strtok(NULL, "\n")) uris[i] = line;

    char authorization[2048], expiration[64];
    snprintf(authorization, sizeof authorization, "authorization: bearer %s", argv[4]);
    snprintf(expiration, sizeof expiration, "apns-expiration: %s", argv[5]);
    const char *fixed[] = {
        authorization, "apns-push-type: liveactivity", "apns-topic: com.example.bench.push-type.liveactivity",
        "apns-priority: 10", expiration, "content-type: application/json", "Accept:", "Expect:",
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) headers = curl_slist_append(headers, fixed[i]);

    curl_global_init(CURL_GLOBAL_ALL);
    struct lane *lanes = calloc((size_t)threads, sizeof(struct lane));
    double started = seconds_now();
    for (long t = 0, first = 0; t < threads; t++) {
        long share = total / threads + (t < total % threads);
        lanes[t] = (struct lane){
            .uris = uris + first, .all_uris = uris, .count = share,
            .connections = connections / threads + (t < connections % threads), .streams = streams,
        };
        first += share;
        pthread_create(&lanes[t].thread, NULL, run_lane, &lanes[t]);
    }
    long answered_ok = 0;
    for (long t = 0; t < threads; t++) {
        pthread_join(lanes[t].thread, NULL);
        answered_ok += lanes[t].answered_ok;
    }
    double elapsed = seconds_now() - started;
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec
        + (double)usage.ru_stime.tv_usec / 1e6;
    curl_slist_free_all(headers);
    curl_global_cleanup();
    free(lanes);
    free(uris);
    free(uri_text);
    free((char *)payload);
    if (answered_ok != total) {
        fprintf(stderr, "curl_floor: %ld of %ld pushes answered 200\n", answered_ok, total);
        return 1;
    }
    printf("%ld %ld\n", (long)(total / elapsed), (long)(cpu * 1000));
    return 0;
}
