package resolver

import (
	"container/list"
	"strconv"
	"sync"
	"time"
)

type cacheKey struct {
	name  string
	qtype uint16
}

func (k cacheKey) String() string { return k.name + "/" + strconv.Itoa(int(k.qtype)) }

type cacheEntry struct {
	key     cacheKey
	res     result
	expires time.Time
}

// cache is a bounded LRU of lookup results with per-entry expiry.
type cache struct {
	mu    sync.Mutex
	max   int
	ll    *list.List // front: most recently used
	items map[cacheKey]*list.Element
}

func newCache(max int) *cache {
	return &cache{max: max, ll: list.New(), items: make(map[cacheKey]*list.Element)}
}

func (c *cache) get(k cacheKey, now time.Time) (result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return result{}, false
	}
	e := el.Value.(*cacheEntry)
	if !now.Before(e.expires) {
		c.ll.Remove(el)
		delete(c.items, k)
		return result{}, false
	}
	c.ll.MoveToFront(el)
	return e.res, true
}

func (c *cache) put(k cacheKey, res result, expires time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[k]; ok {
		e := el.Value.(*cacheEntry)
		e.res, e.expires = res, expires
		c.ll.MoveToFront(el)
		return
	}
	c.items[k] = c.ll.PushFront(&cacheEntry{key: k, res: res, expires: expires})
	for c.ll.Len() > c.max {
		last := c.ll.Back()
		c.ll.Remove(last)
		delete(c.items, last.Value.(*cacheEntry).key)
	}
}

func (c *cache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}
