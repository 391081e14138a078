// Package llmcache keeps language model answers in Redis for a while, so
// that identical requests, on any instance, reach the provider once.
//
// [Redis] is a backend of langchaingo's llms/cache: wrap any llms.Model
// with [Wrap] and every GenerateContent call is looked up first by a hash
// of its messages and options.
//
// Only answers the caller has checked are stored, each for Config.TTL: a
// model's answer that breaks the caller's contract, kept for the TTL,
// would fail every identical request until it expires. The caller makes
// its calls under the context of [Hold] and calls [Pending.Accept] once
// an answer passes its checks (llmjson.Ask does); answers to calls made
// outside a Hold are not stored.
//
// A cached answer cost nothing, and says so: its GenerationInfo holds only
// "Cached": true, with no token counts, so usage accounting records no
// tokens and no cost for it.
//
// The cache never fails a call. Every Redis call is bounded by
// Config.Timeout; a Redis that is slow, down or holding something
// unreadable is a miss, and the model answers. Errors go to
// Config.OnError when set.
package llmcache

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/cache"

	"github.com/quiverkit/quiver/internal/rediskv"
)

// DefaultTimeout bounds each Redis call when Config.Timeout is zero.
const DefaultTimeout = 100 * time.Millisecond

// Config configures a Redis cache.
type Config struct {
	// TTL is how long an answer is kept. Required: a cache of model
	// answers that never expire would serve stale text forever.
	TTL time.Duration
	// Namespace separates answers of different models and deployments;
	// use the model's name. Instances sharing answers must use the same.
	Namespace string
	// Prefix is put before every Redis key. Default "quiver:".
	Prefix string
	// Timeout bounds each Redis call. Default DefaultTimeout.
	Timeout time.Duration
	// OnError, when set, is told of Redis failures (which are misses).
	OnError func(error)
}

// Redis is a cache.Backend storing answers in Redis. It is safe for
// concurrent use.
type Redis struct {
	kv  rediskv.Store
	cfg Config
}

var _ cache.Backend = (*Redis)(nil)

// NewRedis returns a backend storing answers in rdb.
func NewRedis(rdb redis.UniversalClient, cfg Config) (*Redis, error) {
	if cfg.TTL <= 0 {
		return nil, errors.New("llmcache: TTL must be positive")
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "quiver:"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &Redis{kv: rediskv.Store{Client: rdb, Timeout: cfg.Timeout, OnError: cfg.OnError}, cfg: cfg}, nil
}

// Wrap returns model answering from backend when it can.
func Wrap(model llms.Model, backend cache.Backend) llms.Model {
	return cache.New(model, backend)
}

func (r *Redis) key(k string) string { return r.cfg.Prefix + "llm:" + r.cfg.Namespace + ":" + k }

// stored is what is kept of an answer.
type stored struct {
	Choices []storedChoice `json:"choices"`
}

type storedChoice struct {
	Content          string             `json:"content"`
	StopReason       string             `json:"stop_reason,omitempty"`
	ReasoningContent string             `json:"reasoning_content,omitempty"`
	FuncCall         *llms.FunctionCall `json:"func_call,omitempty"`
	ToolCalls        []llms.ToolCall    `json:"tool_calls,omitempty"`
}

// Pending holds the answers a cached model gives under the context of
// [Hold] until the caller accepts one. It is safe for concurrent use.
type Pending struct {
	mu      sync.Mutex
	first   string // key of the first lookup: the request as first made
	backend *Redis
	last    *llms.ContentResponse // the model's last answer; nil when it came from the cache
}

type pendingKey struct{}

// Hold returns a context under which the answers of a model wrapped in
// a Redis cache are held in the returned Pending rather than stored.
func Hold(ctx context.Context) (context.Context, *Pending) {
	p := &Pending{}
	return context.WithValue(ctx, pendingKey{}, p), p
}

// Accept stores the last answer the model gave under the Pending's
// context as the answer to the first request made there, which is what
// an identical request will look up (a retry's messages include the
// rejected answer). Nothing is stored when the last answer came from the
// cache. A nil Pending accepts nothing.
func (p *Pending) Accept(ctx context.Context) {
	if p == nil {
		return
	}
	p.mu.Lock()
	backend, key, res := p.backend, p.first, p.last
	p.last = nil
	p.mu.Unlock()
	if backend != nil && res != nil {
		backend.store(ctx, key, res)
	}
}

func pending(ctx context.Context) *Pending {
	p, _ := ctx.Value(pendingKey{}).(*Pending)
	return p
}

// Get implements cache.Backend: the stored answer, or nil.
func (r *Redis) Get(ctx context.Context, key string) *llms.ContentResponse {
	if p := pending(ctx); p != nil {
		p.mu.Lock()
		if p.first == "" {
			p.first = key
		}
		p.last = nil // a new call: what it answers is what Accept stores
		p.mu.Unlock()
	}
	b, ok := r.kv.Get(ctx, r.key(key))
	if !ok {
		return nil
	}
	var s stored
	if err := json.Unmarshal(b, &s); err != nil || len(s.Choices) == 0 {
		r.kv.Fail(errors.New("llmcache: unreadable entry " + key))
		return nil
	}
	res := &llms.ContentResponse{Choices: make([]*llms.ContentChoice, len(s.Choices))}
	for i, c := range s.Choices {
		res.Choices[i] = &llms.ContentChoice{
			Content:          c.Content,
			StopReason:       c.StopReason,
			ReasoningContent: c.ReasoningContent,
			FuncCall:         c.FuncCall,
			ToolCalls:        c.ToolCalls,
			GenerationInfo:   map[string]any{"Cached": true},
		}
	}
	return res
}

// Put implements cache.Backend: it holds the answer in the Pending of
// ctx until the caller accepts it, and stores nothing outside a [Hold].
func (r *Redis) Put(ctx context.Context, _ string, res *llms.ContentResponse) {
	if p := pending(ctx); p != nil {
		p.mu.Lock()
		p.backend, p.last = r, res
		p.mu.Unlock()
	}
}

// store stores an answer under key. The provider's GenerationInfo (token
// counts) is not kept.
func (r *Redis) store(ctx context.Context, key string, res *llms.ContentResponse) {
	if res == nil || len(res.Choices) == 0 {
		return
	}
	s := stored{Choices: make([]storedChoice, 0, len(res.Choices))}
	for _, c := range res.Choices {
		if c == nil {
			return
		}
		s.Choices = append(s.Choices, storedChoice{
			Content:          c.Content,
			StopReason:       c.StopReason,
			ReasoningContent: c.ReasoningContent,
			FuncCall:         c.FuncCall,
			ToolCalls:        c.ToolCalls,
		})
	}
	b, err := json.Marshal(s)
	if err != nil {
		r.kv.Fail(err)
		return
	}
	// The answer is stored even when the caller has gone: it was paid for.
	r.kv.Set(ctx, r.key(key), b, r.cfg.TTL)
}
