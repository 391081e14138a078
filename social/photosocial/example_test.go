package photosocial_test

import (
	"context"
	"fmt"

	"github.com/quiverkit/quiver/social/photosocial"
)

func ExampleShortcodeToMediaID() {
	id, _ := photosocial.ShortcodeToMediaID("B1LbfVPlwIA")
	code, _ := photosocial.MediaIDToShortcode("2110901750722920960_25025320")
	fmt.Println(id, code)
	// Output: 2110901750722920960 B1LbfVPlwIA
}

func ExampleClient_Posts() {
	c := &photosocial.Client{Provider: photosocial.SampleProvider()}
	page, err := c.Posts(context.Background(), photosocial.PostsRequest{Username: "@sample.bakery", Limit: 3})
	if err != nil {
		panic(err)
	}
	for _, m := range page.Media {
		fmt.Println(m.Type, m.LikeCount+m.CommentCount, m.Hashtags)
	}
	fmt.Println("next:", page.PageInfo.NextCursor)
	// Output:
	// image 931 []
	// reel 6475 [bakingtips sourdough reels]
	// image 585 []
	// next: file:3
}

func ExampleComputeCommentFacts() {
	f := photosocial.ComputeCommentFacts([]photosocial.Comment{
		{ID: "1", Text: "Best croissant in town!"},
		{ID: "2", Text: "Do you ship to Oakland?"},
		{ID: "3", Text: "Free followers at bit.ly/x"},
	})
	fmt.Println(f.Sentiment.Positive, len(f.Questions), f.ModerationFlags[0].CommentID, f.ModerationFlags[0].Rule)
	// Output: 2 1 3 spam_link
}
