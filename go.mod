module github.com/rochade/rochade

go 1.26.8

require github.com/notnil/chess v1.10.0
