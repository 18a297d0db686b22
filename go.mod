module github.com/rochade/rochade

go 1.26.8

require (
	github.com/klauspost/compress v1.20.3
	github.com/notnil/chess v1.10.0
	github.com/rs/zerolog v1.35.1
	github.com/ulikunitz/xz v0.5.17
	golang.org/x/exp v0.0.0-20261014143641-f0251eb4aa3e
	golang.org/x/sys v0.29.0
)

require (
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
)
