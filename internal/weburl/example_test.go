package weburl_test

import (
	"fmt"

	"github.com/quiverkit/quiver/internal/weburl"
)

func ExampleParse() {
	u, err := weburl.Parse(" HTTPS:example.COM:443/a/./b/../%7e?q=\"#f#g")
	if err != nil {
		panic(err)
	}
	fmt.Println(u.Href)
	fmt.Println(u.Host, u.Port == "", u.Path, u.Query, u.Fragment)
	for _, w := range u.Warnings {
		fmt.Println(w.Code)
	}

	_, err = weburl.Parse("http://example.com:65536/")
	fmt.Println(err)
	// Output:
	// https://example.com/a/%7e?q=%22#f#g
	// example.com true /a/%7e q=%22 f#g
	// stripped_control
	// missing_slashes
	// URL has a port outside 0-65535
}

func ExampleParseRef() {
	u, err := weburl.ParseRef("http://a.example/b/c", `\\127.1\admin`)
	if err != nil {
		panic(err)
	}
	fmt.Println(u.Href, u.Addr)
	// Output:
	// http://127.0.0.1/admin 127.0.0.1
}

func ExampleParseHost() {
	for _, h := range []string{"0x7f.1", "Bücher.de", "::1", "a/b"} {
		host, addr, err := weburl.ParseHost(h)
		fmt.Println(host, addr, err)
	}
	// Output:
	// 127.0.0.1 127.0.0.1 <nil>
	// xn--bcher-kva.de invalid IP <nil>
	// [::1] ::1 <nil>
	//  invalid IP URL has a host with the forbidden character "/"
}

func ExampleParseForm() {
	fmt.Println(weburl.ParseForm("q=a+b&q=%2B&empty&=x"))
	// Output:
	// map[:[x] empty:[] q:[a b +]]
}
