package app

// playerTypes are the media types handed to the system's player, by extension.
var playerTypes = map[string]string{
	".mp4": "video/mp4", ".m4v": "video/mp4", ".webm": "video/webm",
	".mov": "video/quicktime", ".mkv": "video/x-matroska", ".avi": "video/x-msvideo",
	".ogv": "video/ogg", ".mpg": "video/mpeg", ".mpeg": "video/mpeg",
}
