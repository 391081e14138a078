package llmjson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/quiverkit/quiver/envelope"
	"github.com/quiverkit/quiver/internal/llmcache"
	"github.com/quiverkit/quiver/internal/llmhttp"
)

// Settings are the model Ask calls and how. The public packages build them
// from their llm.Config:
//
//	llmjson.Settings{Model: c.Model, Name: c.ModelName(), Cost: c.PriceTable().Cost,
//		Timeout: c.Timeout, Attempts: c.Attempts(), DisableJSONMode: c.DisableJSONMode}
type Settings struct {
	// Model answers; nil means no model is configured.
	Model llms.Model
	// Name names the model in the usage and selects its price.
	Name string
	// Cost prices one call of the model named Name; nil prices every
	// call at 0.
	Cost func(model string, promptTokens, completionTokens int) float64
	// Timeout bounds each call; 0 leaves the caller's context alone.
	Timeout time.Duration
	// Attempts is how many answers the model may give; below 1 means 1.
	Attempts int
	// DisableJSONMode stops requesting the provider's JSON mode.
	DisableJSONMode bool
}

// maxViolationsShown bounds the violations repeated to the model and kept
// in a [ContractError], so that a wildly wrong answer cannot blow up the
// retry prompt.
const maxViolationsShown = 20

// Request is what Ask sends to the model.
type Request struct {
	// System states the task and the JSON shape of the answer.
	System string
	// Prompt carries the caller's input.
	Prompt string
	// MaxTokens bounds the length of each answer; set it with
	// [MaxTokens] from the answer's expected size. Zero means
	// MaxTokens(0): every answer is bounded.
	MaxTokens int
	// Temperature, when set, overrides the provider's default.
	Temperature *float64
}

// ContractError reports that the model's last answer could not be decoded
// or broke the caller's rules. Ask returns it as the cause of an
// UPSTREAM_ERROR.
type ContractError struct {
	// Attempts is the number of answers the model gave.
	Attempts int
	// Violations are the problems of the last answer.
	Violations []string
}

// Error lists the violations. The UPSTREAM_ERROR that Ask wraps it in
// says what they broke and after how many attempts, so that the whole
// text reads "the language model's answer did not meet the contract after
// 2 attempts: title must not be empty; ..." and says each once.
func (e *ContractError) Error() string {
	return strings.Join(e.Violations, "; ")
}

// Ask asks c's model for one JSON value of type T, decodes it strictly,
// checks it with validate (which may be nil) and retries with the
// violations shown to the model; see the package documentation.
//
// The returned usage is the sum over every attempt, also when Ask fails
// after the model answered. Errors are *envelope.Error values:
// SERVICE_UNAVAILABLE without a model, RATE_LIMIT_EXCEEDED,
// UPSTREAM_TIMEOUT or UPSTREAM_ERROR from the provider, and UPSTREAM_ERROR
// wrapping a *ContractError when no answer met the contract.
func Ask[T any](ctx context.Context, c Settings, req Request, validate func(*T) []string) (T, Usage, error) {
	var zero T
	if c.Model == nil {
		return zero, Usage{}, envelope.Errorf(envelope.CodeServiceUnavailable, "no language model is configured")
	}
	usage := Usage{Model: c.Name}
	attempts := max(c.Attempts, 1)

	msgs := make([]llms.MessageContent, 0, 2+2*(attempts-1))
	if req.System != "" {
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeSystem, req.System))
	}
	msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, req.Prompt))
	opts := callOptions(c, req)
	// A cache of the model's answers stores only the one accepted here.
	ctx, held := llmcache.Hold(ctx)

	var violations []string
	for attempt := 1; attempt <= attempts; attempt++ {
		answer, u, err := generate(ctx, &c, msgs, opts)
		usage.PromptTokens += u.PromptTokens
		usage.CompletionTokens += u.CompletionTokens
		if c.Cost != nil {
			usage.CostUSD += c.Cost(c.Name, u.PromptTokens, u.CompletionTokens)
		}
		if err != nil {
			return zero, usage, err
		}
		var v T
		violations = decode(answer, &v)
		if violations == nil && validate != nil {
			violations = validate(&v)
		}
		if len(violations) == 0 {
			held.Accept(ctx)
			return v, usage, nil
		}
		if len(violations) > maxViolationsShown {
			violations = append(violations[:maxViolationsShown:maxViolationsShown],
				fmt.Sprintf("... and %d more problems", len(violations)-maxViolationsShown))
		}
		msgs = append(msgs,
			llms.TextParts(llms.ChatMessageTypeAI, answer),
			llms.TextParts(llms.ChatMessageTypeHuman, retryPrompt(violations)))
	}
	cause := &ContractError{Attempts: attempts, Violations: violations}
	return zero, usage, envelope.Wrap(envelope.CodeUpstreamError, cause,
		fmt.Sprintf("the language model's answer did not meet the contract after %d attempts", attempts))
}

// MaxTokens bounds an answer expected to be about expected tokens at
// twice that (JSON syntax, and reasoning models that count their
// thinking), at least 1024 and at most 8192 tokens, so that no answer runs
// away with the cost (a retry also sends the previous answer back), and
// none that is right is cut short. Anthropic's API requires a bound; its
// client's default (2048) would cut a long answer.
func MaxTokens(expected int) int {
	return min(max(2*expected, 1024), 8192)
}

func callOptions(c Settings, req Request) []llms.CallOption {
	var opts []llms.CallOption
	if !c.DisableJSONMode {
		opts = append(opts, llms.WithJSONMode())
	}
	limit := req.MaxTokens
	if limit <= 0 {
		limit = MaxTokens(0)
	}
	opts = append(opts, llms.WithMaxTokens(limit))
	if req.Temperature != nil {
		opts = append(opts, llms.WithTemperature(*req.Temperature))
	}
	return opts
}

// generate makes one call to the model and returns the text of its first
// choice with the usage it reported, or a classified error.
func generate(ctx context.Context, c *Settings, msgs []llms.MessageContent, opts []llms.CallOption) (string, Usage, error) {
	actx, cancel := ctx, context.CancelFunc(func() {})
	if c.Timeout > 0 {
		actx, cancel = context.WithTimeout(ctx, c.Timeout)
	}
	defer cancel()
	actx, rec := llmhttp.WithRecorder(actx)

	resp, err := c.Model.GenerateContent(actx, msgs, opts...)
	if err != nil {
		return "", Usage{}, classify(ctx, actx, rec, err)
	}
	if resp == nil || len(resp.Choices) == 0 || resp.Choices[0] == nil {
		return "", Usage{}, envelope.Errorf(envelope.CodeUpstreamError, "the language model returned no answer")
	}
	ch := resp.Choices[0]
	return ch.Content, UsageOf(ch.GenerationInfo), nil
}

// retryPrompt is the message that shows the model what was wrong.
func retryPrompt(violations []string) string {
	var b strings.Builder
	b.WriteString("Your previous answer was rejected because it broke these rules:\n")
	for _, v := range violations {
		b.WriteString("- ")
		b.WriteString(v)
		b.WriteByte('\n')
	}
	b.WriteString("Answer again with only the corrected JSON object, following every rule of the original instructions.")
	return b.String()
}

// decode decodes answer strictly into v and returns the problems found,
// or nil.
func decode(answer string, v any) []string {
	body := bytes.TrimSpace([]byte(answer))
	body = stripFence(body)
	if len(body) == 0 {
		return []string{"the answer was empty; it must be a single JSON object"}
	}
	if body[0] != '{' {
		// null, a string or an array would decode into a zero value that
		// looks like a success to a caller without a validator.
		return []string{"the answer is not valid JSON of the required shape: it must be a single JSON object, starting with '{'"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return []string{"the answer is not valid JSON of the required shape: " + describe(err)}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return []string{"the answer must be exactly one JSON object with nothing before or after it"}
	}
	return nil
}

// stripFence removes one Markdown code fence around the whole answer.
func stripFence(b []byte) []byte {
	if !bytes.HasPrefix(b, []byte("```")) || !bytes.HasSuffix(b, []byte("```")) || len(b) < 6 {
		return b
	}
	inner := b[3 : len(b)-3]
	nl := bytes.IndexByte(inner, '\n')
	if nl < 0 {
		return b
	}
	lang := bytes.TrimSpace(inner[:nl])
	if len(lang) > 0 && !bytes.EqualFold(lang, []byte("json")) {
		return b
	}
	return bytes.TrimSpace(inner[nl+1:])
}

// describe turns a decoding error into a sentence for the model.
func describe(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return fmt.Sprintf("field %q must be a JSON %s, not %s", te.Field, te.Type.Kind(), te.Value)
	}
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "json: ")
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		msg = "the JSON ends too early"
	}
	return msg
}
