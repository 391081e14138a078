package httpapi

import "github.com/quiverkit/quiver/devutil"

// devutilRoutes returns the routes served by package devutil.
func (s *server) devutilRoutes() []route {
	return []route{
		post(groupDev, "/v1/dev/data/base64/encode", "Encode UTF-8 text to Base64", devutil.EncodeBase64),
		post(groupDev, "/v1/dev/data/base64/decode", "Decode Base64 to UTF-8 text", devutil.DecodeBase64),
	}
}
