from pyscript import document

document.documentElement.dataset.ready = "1"
