package httpapi

import (
	"fmt"
	"reflect"

	"github.com/quiverkit/quiver/devutil"
	"github.com/quiverkit/quiver/email"
	"github.com/quiverkit/quiver/email/jobs"
	"github.com/quiverkit/quiver/mailauth"
	"github.com/quiverkit/quiver/social"
	"github.com/quiverkit/quiver/social/microblog"
	"github.com/quiverkit/quiver/social/photosocial"
	"github.com/quiverkit/quiver/webcheck"
)

// stringEnums is the registry of closed sets: for each named string type
// that a route reads or answers, its values in order, taken from the list
// function of the type's package, so that the OpenAPI document's enum
// lists are the constants themselves. TestStringEnumsCoverRoutes fails
// when a named string type reachable from a route has no entry.
var stringEnums = map[reflect.Type][]string{
	reflect.TypeFor[jobs.Status]():              stringsOf(jobs.Statuses()),
	reflect.TypeFor[social.Label]():             wordsOf(social.Labels()),
	reflect.TypeFor[email.Reachability]():       stringsOf(email.Reachabilities()),
	reflect.TypeFor[email.ReachabilityReason](): stringsOf(email.ReachabilityReasons()),
	reflect.TypeFor[email.Provider]():           stringsOf(email.Providers()),
	reflect.TypeFor[email.Reason]():             stringsOf(email.Reasons()),
	reflect.TypeFor[email.MXStatus]():           stringsOf(email.MXStatuses()),
	reflect.TypeFor[email.SMTPStatus]():         stringsOf(email.SMTPStatuses()),
	reflect.TypeFor[email.SMTPReason]():         stringsOf(email.SMTPReasons()),
	reflect.TypeFor[email.Verdict]():            stringsOf(email.Verdicts()),
	reflect.TypeFor[email.ProblemCode]():        stringsOf(email.ProblemCodes()),
	reflect.TypeFor[email.RequirementID]():      stringsOf(email.RequirementIDs()),
	reflect.TypeFor[email.RequirementStatus]():  stringsOf(email.RequirementStatuses()),
	reflect.TypeFor[mailauth.Code]():            stringsOf(mailauth.Codes()),
	reflect.TypeFor[mailauth.Severity]():        stringsOf(mailauth.Severities()),
	reflect.TypeFor[mailauth.RecordStatus]():    stringsOf(mailauth.RecordStatuses()),
	reflect.TypeFor[photosocial.MediaType]():    stringsOf(photosocial.MediaTypes()),
	reflect.TypeFor[photosocial.RuleName]():     stringsOf(photosocial.RuleNames()),
	reflect.TypeFor[photosocial.FlagSource]():   stringsOf(photosocial.FlagSources()),
	reflect.TypeFor[photosocial.EvidenceKind](): stringsOf(photosocial.EvidenceKinds()),
	reflect.TypeFor[microblog.SearchType]():     stringsOf(microblog.SearchTypes()),
	reflect.TypeFor[microblog.ReplySort]():      stringsOf(microblog.ReplySorts()),
	reflect.TypeFor[microblog.ThreadFormat]():   stringsOf(microblog.ThreadFormats()),
	reflect.TypeFor[webcheck.Risk]():            stringsOf(webcheck.Risks()),
	reflect.TypeFor[webcheck.KeyType]():         stringsOf(webcheck.KeyTypes()),
	reflect.TypeFor[webcheck.URLWarningCode]():  stringsOf(webcheck.URLWarningCodes()),
	reflect.TypeFor[devutil.Language]():         stringsOf(devutil.Languages()),
	reflect.TypeFor[devutil.Base64Operation]():  stringsOf(devutil.Base64Operations()),
}

// wordsOf returns the words of values that print as their word.
func wordsOf[S fmt.Stringer](vals []S) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = v.String()
	}
	return out
}

// stringsOf converts the values of a string type.
func stringsOf[S ~string](vals []S) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = string(v)
	}
	return out
}

// nullableEnum is vals with null, the enum of a value that may be null:
// JSON Schema checks enum whatever the type says.
func nullableEnum(vals []string) []any {
	out := make([]any, 0, len(vals)+1)
	for _, v := range vals {
		out = append(out, v)
	}
	return append(out, nil)
}
