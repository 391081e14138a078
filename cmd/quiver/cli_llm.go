package main

import (
	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/httpapi"
)

// devutilConfig returns the configuration of the model-backed devutil
// commands: the server's model and regex match timeout.
func devutilConfig(cfg *httpapi.Config) devutil.Config {
	return devutil.Config{LLM: cfg.LLM, RegexMatchTimeout: cfg.RegexMatchTimeout}
}
