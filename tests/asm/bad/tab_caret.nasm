; Tabs stay tabs in the caret line, so the caret sits under the right character.
.sbuf	t	f32 [128, 4]
	memset	dst=t,	value=tt
	memset dst=t, vlaue=1
