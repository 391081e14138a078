package redislimit_test

import (
	"log"
	"net/http"

	"github.com/redis/go-redis/v9"

	"github.com/quiverkit/quiver/httpapi"
	"github.com/quiverkit/quiver/httpapi/redislimit"
	"github.com/quiverkit/quiver/secret"
)

// Every instance configured like this shares one limit of 10 requests per
// second per key, in bursts of up to 20.
func Example() {
	rdb := redis.NewClient(&redis.Options{
		Addr:                  "redis.internal:6379",
		ContextTimeoutEnabled: true, // let Config.Timeout bound each call
		MaxRetries:            -1,   // a hung Redis costs one timeout, not several
	})
	defer rdb.Close()

	limiter, err := redislimit.New(redislimit.Config{Client: rdb, RatePerSecond: 10, Burst: 20})
	if err != nil {
		log.Fatal(err)
	}
	api, err := httpapi.New(httpapi.Config{Keys: []secret.String{"key-of-team-a"}, Limiter: limiter})
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe(":8080", api))
}
