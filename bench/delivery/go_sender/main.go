// bench/delivery's "Go net/http" row: the sender people run instead of a gateway (gorush and apns2 post
// through Go's HTTP/2 transport), posting one payload per token URI with the gateway's headers and a
// fixed number of pushes in flight, each a goroutine's request. Go's transport opens another connection
// to the host when one's streams are all taken, as those senders do. It keeps no records: no database,
// no payload building, no bookkeeping.
//
//	go_sender URIS PAYLOAD CA_FILE PROVIDER_TOKEN EXPIRATION IN_FLIGHT
//
// Prints "pushes_per_second cpu_ms" (CPU: user + system of the whole process). Exits 1 unless every
// push was answered 200.
package main

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) != 7 {
		fmt.Fprintln(os.Stderr, "usage: go_sender URIS PAYLOAD CA_FILE PROVIDER_TOKEN EXPIRATION IN_FLIGHT")
		os.Exit(2)
	}
	uris := readLines(os.Args[1])
	payload := mustRead(os.Args[2])
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(mustRead(os.Args[3])) {
		fail("no certificate in %s", os.Args[3])
	}
	authorization := "bearer " + os.Args[4]
	expiration := os.Args[5]
	inFlight, err := strconv.Atoi(os.Args[6])
	if err != nil || inFlight < 1 {
		fail("IN_FLIGHT must be a positive number")
	}

	client := &http.Client{Transport: &http.Transport{
		TLSClientConfig:     &tls.Config{RootCAs: roots},
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: inFlight,
	}}
	var sent, refused atomic.Int64
	next := make(chan string)
	var senders sync.WaitGroup
	started := time.Now()
	for i := 0; i < inFlight; i++ {
		senders.Add(1)
		go func() {
			defer senders.Done()
			for uri := range next {
				serial := sent.Add(1)
				request, err := http.NewRequest(http.MethodPost, uri, bytes.NewReader(payload))
				if err != nil {
					fail("request: %v", err)
				}
				request.Header.Set("authorization", authorization)
				request.Header.Set("apns-push-type", "liveactivity")
				request.Header.Set("apns-topic", "com.example.bench.push-type.liveactivity")
				request.Header.Set("apns-priority", "10")
				request.Header.Set("apns-expiration", expiration)
				request.Header.Set("apns-id", fmt.Sprintf("00000000-0000-4000-8000-%012x", serial))
				request.Header.Set("content-type", "application/json")
				response, err := client.Do(request)
				if err != nil {
					refused.Add(1)
					continue
				}
				io.Copy(io.Discard, response.Body)
				response.Body.Close()
				if response.StatusCode != http.StatusOK || response.ProtoMajor != 2 {
					refused.Add(1)
				}
			}
		}()
	}
	for _, uri := range uris {
		next <- uri
	}
	close(next)
	senders.Wait()
	elapsed := time.Since(started)

	var usage syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	cpu := time.Duration(usage.Utime.Nano() + usage.Stime.Nano())
	if refused.Load() > 0 {
		fail("%d of %d pushes were not answered 200 over HTTP/2", refused.Load(), len(uris))
	}
	fmt.Printf("%d %d\n", int(float64(len(uris))/elapsed.Seconds()), cpu.Milliseconds())
}

func readLines(path string) []string {
	file, err := os.Open(path)
	if err != nil {
		fail("%v", err)
	}
	defer file.Close()
	var lines []string
	scanner := bufio.NewScanner(file)
	for scanner.Scan() {
		if line := scanner.Text(); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

func mustRead(path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	return data
}

func fail(format string, arguments ...any) {
	fmt.Fprintf(os.Stderr, "go_sender: "+format+"\n", arguments...)
	os.Exit(1)
}
