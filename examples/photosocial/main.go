// Command photosocial runs the photo-sharing operations offline on the
// bundled SAMPLE dataset (fictional accounts), then computes the facts
// that the AI insights hand to a model.
//
//	go run ./examples/photosocial
//
// No network and no model are needed. With a model, the same Client
// answers ProfileInsights and CommentInsights: set Client.Model to any
// langchaingo llms.Model.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/quiverkit/quiver/social/photosocial"
)

func main() {
	ctx := context.Background()
	c, err := photosocial.New(photosocial.Config{Provider: photosocial.Sample()})
	if err != nil {
		log.Fatal(err)
	}

	prof, err := c.Profile(ctx, photosocial.ProfileRequest{Username: "@sample.bakery"})
	check(err)
	fmt.Printf("@%s (%s): %d followers, %d posts [source %s]\n\n",
		prof.Username, prof.FullName, prof.FollowersCount, prof.MediaCount, prof.Source)

	// Page through the posts, four at a time.
	var all []photosocial.Media
	cursor := ""
	for page := 1; ; page++ {
		l, err := c.Posts(ctx, photosocial.PostsRequest{Username: prof.Username, Limit: 4, Cursor: cursor})
		check(err)
		fmt.Printf("page %d:\n", page)
		for _, m := range l.Media {
			fmt.Printf("  %-8s %s  %5d likes %4d comments  %s\n", m.Type, m.Shortcode, m.LikeCount, m.CommentCount, m.TakenAt)
		}
		all = append(all, l.Media...)
		if !l.PageInfo.HasNextPage {
			break
		}
		cursor = l.PageInfo.NextCursor
	}

	reels, err := c.Reels(ctx, photosocial.ReelsRequest{Username: prof.Username})
	check(err)
	fmt.Printf("\n%d reels\n", reels.ResultCount)

	priv, err := c.Posts(ctx, photosocial.PostsRequest{Username: "sample.private"})
	check(err)
	fmt.Printf("@sample.private: %d media, notes %q\n", priv.ResultCount, priv.Notes)

	// A shortcode is the media ID in Instagram's base64 alphabet.
	id, err := photosocial.ShortcodeToMediaID(all[0].Shortcode)
	check(err)
	fmt.Printf("\nshortcode %s = media id %s\n", all[0].Shortcode, id)

	// The facts of profile insights, computed without a model.
	pf := photosocial.ComputeProfileFacts(prof, all)
	fmt.Printf("\nprofile facts: %.2f posts/week, %.0f engagement/post, %.4f per follower, best post %s\n",
		pf.Posting.PostsPerWeek, pf.AvgEngagement, pf.EngagementRate, pf.BestPosts[0].Shortcode)

	// The facts of comment insights on the most commented carousel.
	var car photosocial.Media
	for _, m := range all {
		if m.Type == photosocial.TypeCarousel && m.CommentCount > car.CommentCount {
			car = m
		}
	}
	cl, err := c.Comments(ctx, photosocial.CommentsRequest{Shortcode: car.Shortcode, Limit: 100})
	check(err)
	cf := photosocial.ComputeCommentFacts(cl.Comments)
	out, _ := json.MarshalIndent(map[string]any{
		"sentiment": cf.Sentiment, "questions": cf.Questions,
		"repeated_phrases": cf.RepeatedPhrases, "moderation_flags": cf.ModerationFlags,
	}, "", "  ")
	fmt.Printf("\ncomment facts of %s (%d comments):\n%s\n", car.Shortcode, cf.CommentsAnalyzed, out)
}

func check(err error) {
	if err != nil {
		log.SetOutput(os.Stderr)
		log.Fatal(err)
	}
}
