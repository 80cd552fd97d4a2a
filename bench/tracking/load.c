// bench/tracking's load generator: open loop. Posts `/messages/live_activity/update` at a fixed
// offered rate, whatever the gateway's answers take (request i is due at start + i / RATE), to random
// activities `track-<k>` (k below ACTIVITIES, or below HOT for a burst where activities get several
// updates each). Each body's content_state carries the request's sequence number, so the last accepted
// update of an activity is the one with its highest number.
//
//   load BASE_URL API_KEY APP_ID ACTIVITIES HOT RATE SECONDS CONNECTIONS OUT_FILE [start]
//
// With `start`, posts `/messages/live_activity/start` instead: each request starts its own activity
// `order-<sequence>` (type OrderAttributes) for one random user `user-<k>`, as an app starts one Live
// Activity per order through push-to-start.
//
// HTTP/1.1 keep-alive over at most CONNECTIONS connections (libcurl multi), one request on each at a
// time; requests due while every connection is busy wait here and go as connections free up, so the
// offered rate holds (they are not handed to libcurl early: its pending list costs time per handle on
// every call, which made the generator itself the bottleneck once the gateway fell behind). OUT_FILE
// gets one line per request: "activity sequence status"; with LOAD_TIMINGS=1 in the environment,
// also when it went and when it was answered, in milliseconds since 1970 ("... sent_ms answered_ms").
// Prints "sent accepted other seconds".
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct request {
    long activity;
    long sequence;
    double sent_at;
    char body[512];
};

static size_t discard(char *data, size_t size, size_t count, void *user) {
    (void)data;
    (void)user;
    return size * count;
}

static double wall_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 10 && !(argc == 11 && strcmp(argv[10], "start") == 0)) {
        fprintf(stderr, "usage: load BASE_URL API_KEY APP_ID ACTIVITIES HOT RATE SECONDS CONNECTIONS OUT_FILE [start]\n");
        return 2;
    }
    int starts = argc == 11;
    int timings = getenv("LOAD_TIMINGS") != NULL && strcmp(getenv("LOAD_TIMINGS"), "1") == 0;
    const char *base = argv[1], *app_id = argv[3];
    long activities = atol(argv[4]), hot = atol(argv[5]);
    double rate = atof(argv[6]), seconds = atof(argv[7]);
    long connections = atol(argv[8]);
    FILE *out = fopen(argv[9], "w");
    if (!out || activities <= 0 || rate <= 0 || seconds <= 0 || connections <= 0) return 2;
    if (hot <= 0 || hot > activities) hot = activities;

    char url[512], authorization[512];
    snprintf(url, sizeof url, "%s/messages/live_activity/%s", base, starts ? "start" : "update");
    snprintf(authorization, sizeof authorization, "Authorization: Bearer %s", argv[2]);
    struct curl_slist *headers = curl_slist_append(NULL, authorization);
    headers = curl_slist_append(headers, "Content-Type: application/json");

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, connections);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, connections);

    long total = (long)(rate * seconds), sent = 0, finished = 0, accepted = 0, other = 0;
    srand48(42);
    double start = now();
    while (finished < total) {
        // Every request due by now goes out as soon as a connection is free.
        double elapsed = now() - start;
        while (sent < total && sent <= (long)(elapsed * rate) && sent - finished < connections) {
            struct request *request = malloc(sizeof *request);
            request->activity = (long)(drand48() * hot);
            request->sequence = sent;
            request->sent_at = wall_ms();
            if (starts) {
                snprintf(request->body, sizeof request->body,
                         "{\"app_id\":\"%s\",\"activity_id\":\"order-%ld\",\"activity_attributes_type\":\"OrderAttributes\","
                         "\"activity_attributes\":{\"order\":\"%ld\"},\"content_state\":{\"n\":%ld,\"eta\":\"12:%02ld\"},"
                         "\"notification\":{\"alert\":{\"title\":\"Your order\",\"body\":\"On its way\"}},"
                         "\"external_user_ids\":[\"user-%ld\"]}",
                         app_id, request->sequence, request->sequence, request->sequence, request->sequence % 60,
                         request->activity);
            } else {
                snprintf(request->body, sizeof request->body,
                         "{\"app_id\":\"%s\",\"activity_id\":\"track-%ld\",\"content_state\":{\"n\":%ld,\"eta\":\"12:%02ld\"}}",
                         app_id, request->activity, request->sequence, request->sequence % 60);
            }
            CURL *easy = curl_easy_init();
            curl_easy_setopt(easy, CURLOPT_URL, url);
            curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
            curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request->body);
            curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard);
            curl_easy_setopt(easy, CURLOPT_PRIVATE, request);
            curl_multi_add_handle(multi, easy);
            sent++;
        }
        int running = 0;
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            struct request *request;
            long status = 0;
            curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&request);
            curl_easy_getinfo(message->easy_handle, CURLINFO_RESPONSE_CODE, &status);
            if (status == 201) accepted++; else other++;
            if (timings) {
                fprintf(out, "%ld %ld %ld %.0f %.0f\n", request->activity, request->sequence, status, request->sent_at, wall_ms());
            } else {
                fprintf(out, "%ld %ld %ld\n", request->activity, request->sequence, status);
            }
            curl_multi_remove_handle(multi, message->easy_handle);
            curl_easy_cleanup(message->easy_handle);
            free(request);
            finished++;
        }
        // Wake for answers, or when the next request is due and a connection is free for it.
        double next = sent < total && sent - finished < connections ? start + (sent + 1) / rate - now() : 0.05;
        int wait = next <= 0 ? 0 : (int)(next * 1000) + 1;
        curl_multi_poll(multi, NULL, 0, wait > 50 ? 50 : wait, NULL);
    }
    double took = now() - start;
    fclose(out);
    printf("%ld %ld %ld %.3f\n", sent, accepted, other, took);
    curl_multi_cleanup(multi);
    curl_slist_free_all(headers);
    return 0;
}
